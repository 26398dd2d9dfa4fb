export * from './demo-data-guard';
export * from './demo-partners';
export * from './entities/company';
export * from './entities/sales-agent';
export * from './partner-access';
export * from './seed';
export * from './commission-percents';
