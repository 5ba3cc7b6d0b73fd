import { Module } from '@nestjs/common';
import { projectionConsumers } from '@ddm/platform';
import { DocumentsController } from './documents/documents.controller';
import { DocumentsService } from './documents/documents.service';
import { FILE_STORE } from './files/file-store';
import { FilesController } from './files/files.controller';
import { MultipartSetup } from './files/multipart.setup';
import { FilesService } from './files/files.service';
import { PgFileStore } from './files/pg-file.store';
import { DECISIONS } from './projections/decision.projection';
import { DELEGATIONS } from './projections/delegation.projection';
import { DOCUMENT_TYPES } from './projections/document-type.projection';
import { GROUPS } from './projections/group.projection';
import { POSITIONS } from './projections/position.projection';
import { USERS } from './projections/user.projection';

/**
 * The document area: documents (sharing, oversight, favourites, change log), their files (stored
 * in PostgreSQL, chunked), and the projections of the records they name (users, groups,
 * positions, document types) and of what links them (decisions, delegations).
 */
@Module({
  controllers: [DocumentsController, FilesController],
  providers: [DocumentsService, FilesService, MultipartSetup, { provide: FILE_STORE, useClass: PgFileStore }, projectionConsumers(USERS, GROUPS, POSITIONS, DOCUMENT_TYPES, DECISIONS, DELEGATIONS)],
})
export class DocumentModule {}
