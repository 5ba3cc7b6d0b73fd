/** Events of the matrix area. */
import { BooleanField, StringField, UuidArrayField, UuidField } from './fields';
import { eventEntry } from './entry';

/** evt.matrix.matrix.created | updated | deleted: a matrix as other areas may count or name it. */
export class MatrixEvent {
  @UuidField() tenantId: string;
  @UuidField() id: string;
  /** Display id ("10000"). */
  @StringField({ max: 20 }) matrixId: string;
  @StringField({ max: 200 }) matrixName: string;
  @StringField({ max: 20 }) matrixStatusName: string;
  @UuidField({ nullable: true }) ownerId: string | null;
  @StringField({ max: 20 }) sharingType: string;
  @UuidArrayField({ max: 500 }) sharedUserIds: string[];
  @UuidArrayField({ max: 500 }) sharedGroupIds: string[];
  @BooleanField() isDeleted: boolean;
}

export const MATRIX_EVENTS = {
  'evt.matrix.matrix.created': eventEntry(MatrixEvent, 'A matrix was created.'),
  'evt.matrix.matrix.updated': eventEntry(MatrixEvent, 'A matrix changed (fields, sharing, owner, status).'),
  'evt.matrix.matrix.deleted': eventEntry(MatrixEvent, 'A matrix was deleted (softly).'),
} as const;
