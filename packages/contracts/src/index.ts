export * from './scopes.js';
export * from './errors.js';
export * from './common.js';
export * from './identity.js';
export * from './recruiting.js';
export * from './events.js';
export * from './integrations.js';
export * from './http.js';
