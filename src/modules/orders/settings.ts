import type { EnvReader } from '../../kernel/settings/env-reader';

/** Orders' settings. */
export interface OrderSettings {
  /** How far after the departure an order was booked with a date change may move it (DEPARTURE_CHANGE_MAX_DAYS). */
  departureChangeMaxDays: number;
}

export function ordersConfig(read: EnvReader): OrderSettings {
  return { departureChangeMaxDays: read.integer('DEPARTURE_CHANGE_MAX_DAYS', 365, 0, 3650) };
}
