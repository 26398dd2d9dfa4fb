export * from './entities/traveller';
export * from './handlers';
