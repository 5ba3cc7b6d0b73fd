export * from './env';
export * from './database';
export * from './nats';
export * from './tokens';
export * from './http';
export * from './service';
export * from './processes';
export * from './events';
