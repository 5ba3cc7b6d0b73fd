import { Module } from '@nestjs/common';
import { projectionConsumers, snapshotSources } from '@ddm/platform';
import { DocumentsController } from './documents/documents.controller';
import { DocumentsService } from './documents/documents.service';
import { DOCUMENTS_SNAPSHOT } from './documents/document-refs';
import { FILE_STORE } from './files/file-store';
import { FilesController } from './files/files.controller';
import { MultipartSetup } from './files/multipart.setup';
import { FILES_OPTIONS, FilesOptions, loadFilesOptions } from './files/files.config';
import { S3FileStore } from './files/s3-file.store';
import { FilesService } from './files/files.service';
import { PgFileStore } from './files/pg-file.store';
import { DECISIONS } from './consumers/decision.projection';
import { DELEGATIONS } from './consumers/delegation.projection';
import { DOCUMENT_TYPES } from './consumers/document-type.projection';
import { GROUPS } from './consumers/group.projection';
import { POSITIONS } from './consumers/position.projection';
import { USERS } from './consumers/user.projection';

/**
 * The document area: documents (sharing, oversight, favourites, change log), their files (stored
 * in PostgreSQL, chunked), and the projections of the records they name (users, groups,
 * positions, document types) and of what links them (decisions, delegations); it serves its
 * documents' current state to the other areas' projections (`sync.document.documents`).
 */
@Module({
  controllers: [DocumentsController, FilesController],
  providers: [DocumentsService, FilesService, MultipartSetup, { provide: FILES_OPTIONS, useFactory: () => loadFilesOptions(process.env) },
    {
      provide: FILE_STORE,
      inject: [FILES_OPTIONS],
      useFactory: (options: FilesOptions) => (options.storage === 's3' ? new S3FileStore(options.s3!) : new PgFileStore()),
    }, projectionConsumers(USERS, GROUPS, POSITIONS, DOCUMENT_TYPES, DECISIONS, DELEGATIONS), snapshotSources(DOCUMENTS_SNAPSHOT)],
})
export class DocumentModule {}
