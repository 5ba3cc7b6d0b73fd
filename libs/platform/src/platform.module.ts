import { BeforeApplicationShutdown, DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import {
  AUTH_OPTIONS,
  AllExceptionsFilter,
  CALLER_RESOLVER,
  CallerGuard,
  CallerResolver,
  JwtStrategy,
  RequestInputChecks,
  ResponseEnvelope,
  createValidationPipe,
} from '@ddm/contracts';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ConfigError, ServiceConfig } from './config';
import { Consumers } from './consumer';
import { ServiceDataSource, createDataSource, isolationProblems, migrateSchema } from './database';
import { Db } from './db';
import { Freshness } from './freshness';
import { Jobs } from './jobs';
import { NatsClient } from './nats';
import { OutboxRelay } from './outbox';
import { currentTraceContext, setTraceHeaders } from './tracing';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const LOGGER = Symbol('LOGGER');

/**
 * Starts the relay when the app is up. On shutdown: first (before HTTP drains) the relay and the
 * consumers stop taking work; last (after every module's own shutdown) NATS drains and the pool closes.
 */
@Injectable()
class PlatformLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly consumers: Consumers,
    private readonly nats: NatsClient,
    private readonly ds: DataSource,
    @Inject(CALLER_RESOLVER) private readonly resolver: CallerResolver,
  ) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.consumers.stopAll();
    await this.relay.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.resolver.stop();
    await this.nats.close();
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

export interface PlatformOptions {
  config: ServiceConfig;
  logger: Logger;
  dataSource: ServiceDataSource;
}

/**
 * Everything a service runs on, provided globally: config, logger, the DataSource (migrated at
 * start), NATS, the outbox relay, consumers, how fresh the service is (Freshness), and the global
 * guard, pipe, filter and envelope.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot({ config, logger, dataSource }: PlatformOptions): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        {
          provide: DataSource,
          useFactory: async () => {
            if (config.runMigrations) await migrateSchema(dataSource, config.migrationDatabaseUrl, config.databaseUrl, logger);
            const ds = createDataSource(dataSource, config.databaseUrl, config.dbPoolSize);
            await ds.initialize();
            // Tenant isolation is the database's too: refuse to serve with a role that gets around it or a table it does not cover.
            const problems = await isolationProblems(ds, dataSource.schema);
            if (problems.length) {
              await ds.destroy();
              throw new ConfigError(`DATABASE_URL: ${problems.join('; ')} (services connect as the app role, migrations run as MIGRATION_DATABASE_URL's owner role)`);
            }
            return ds;
          },
        },
        { provide: NatsClient, useFactory: () => NatsClient.connect(config.natsUrl, config.natsNamespace, `ddm-${config.area}`) },
        {
          provide: OutboxRelay,
          inject: [DataSource, NatsClient],
          useFactory: (ds: DataSource, nats: NatsClient) => new OutboxRelay(ds, dataSource.schema, nats, logger),
        },
        { provide: Db, inject: [DataSource, OutboxRelay], useFactory: (ds: DataSource, relay: OutboxRelay) => new Db(ds, dataSource.schema, relay, logger) },
        { provide: Consumers, inject: [Db, NatsClient], useFactory: (db: Db, nats: NatsClient) => new Consumers(db, nats, logger) },
        { provide: Jobs, inject: [Db, Consumers], useFactory: (db: Db, consumers: Consumers) => new Jobs(db, consumers, logger) },
        {
          provide: Freshness,
          inject: [Consumers, Db, NatsClient],
          useFactory: (consumers: Consumers, db: Db, nats: NatsClient) => new Freshness(consumers, db, nats, logger, config.consistencyWaitMs),
        },
        { provide: AUTH_OPTIONS, useValue: config.auth },
        JwtStrategy,
        {
          provide: CALLER_RESOLVER,
          inject: [NatsClient],
          useFactory: async (nats: NatsClient) => {
            const resolver = new CallerResolver(nats.nc, nats.subjects, {
              ttlMs: config.callerCacheTtlMs,
              headers: (h) => setTraceHeaders(h, currentTraceContext()),
            });
            await resolver.start();
            return resolver;
          },
        },
        PlatformLifecycle,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // The caller, the input checks (NUL characters, nesting, unknown query parameters) and the
        // envelope: steps of the one global guard, RequestStepsGuard (bootstrap.ts).
        CallerGuard,
        RequestInputChecks,
        ResponseEnvelope,
        { provide: APP_PIPE, useValue: createValidationPipe() },
      ],
      exports: [SERVICE_CONFIG, LOGGER, DataSource, NatsClient, OutboxRelay, Consumers, Db, Jobs, Freshness, CALLER_RESOLVER, CallerGuard, RequestInputChecks, ResponseEnvelope],
    };
  }
}
