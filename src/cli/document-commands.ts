import type { Command } from 'commander';
import { loadConfig } from '../config';
import { documentStorageFor, purgeExpiredDrafts } from '../modules/documents';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

export function registerDocumentCommands(program: Command): void {
  const document = program.command('document').description('uploaded traveller documents');

  operatorCommand(
    document,
    'purge-drafts',
    'delete unattached documents older than DOCUMENT_DRAFT_TTL_HOURS, with their bytes',
    (command) => command.option('--older-than-hours <hours>', 'override DOCUMENT_DRAFT_TTL_HOURS for this run'),
  ).action(async (options: CliOptions & { olderThanHours?: string }) => {
    const config = loadConfig();
    const ttlHours =
      options.olderThanHours === undefined ? config.documentDraftTtlHours : Number(options.olderThanHours);
    if (!Number.isFinite(ttlHours) || ttlHours < 0)
      throw new Error('--older-than-hours must be a number of hours, 0 or more');
    const storage = await documentStorageFor(config);
    const result = await withDatabase((em) => purgeExpiredDrafts(em, storage, { ttlHours }));
    output(options, { ...result, ttlHours }, `purged ${result.purged} draft document(s) older than ${ttlHours} h`);
  });
}
