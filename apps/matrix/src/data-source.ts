import { ServiceDataSource } from '@ddm/platform';
import { MatrixPlatform1763800000000 } from './migrations/1763800000000-matrix-platform';
import { MatrixOutboxTrace1764900000000 } from './migrations/1764900000000-matrix-outbox-trace';
import { MatrixCore1765500000000 } from './migrations/1765500000000-matrix-core';
import { MatrixGridReads1765700000000 } from './migrations/1765700000000-matrix-grid-reads';

/** The matrix schema: used by the service and by `migrate`. */
export const matrixDataSource: ServiceDataSource = {
  schema: 'matrix',
  // The search's "contains" is served by a trigram index.
  extensions: ['pg_trgm'],
  migrations: [MatrixPlatform1763800000000, MatrixOutboxTrace1764900000000, MatrixCore1765500000000, MatrixGridReads1765700000000],
};
