/** Every service's schema, in the order `npm run migrate` and the test template apply them. */
import { ServiceDataSource } from '@ddm/platform';
import { actionsDataSource } from '../apps/actions/src/data-source';
import { authDataSource } from '../apps/auth/src/data-source';
import { decisionDataSource } from '../apps/decision/src/data-source';
import { documentDataSource } from '../apps/document/src/data-source';
import { matrixDataSource } from '../apps/matrix/src/data-source';
import { notificationsDataSource } from '../apps/notifications/src/data-source';
import { settingsDataSource } from '../apps/settings/src/data-source';

export const ALL_DATA_SOURCES: ServiceDataSource[] = [
  authDataSource,
  settingsDataSource,
  decisionDataSource,
  actionsDataSource,
  matrixDataSource,
  documentDataSource,
  notificationsDataSource,
];
