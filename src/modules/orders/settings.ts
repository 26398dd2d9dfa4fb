import { z } from 'zod';
import { integer, readEnv, type EnvReading } from '../../kernel/settings/env-schema';

/** Orders' settings. */
export interface OrderSettings {
  /** How far after the departure an order was booked with a date change may move it (DEPARTURE_CHANGE_MAX_DAYS). */
  departureChangeMaxDays: number;
}

const ordersEnv = z.object({ DEPARTURE_CHANGE_MAX_DAYS: integer(0, 3650).default(365) });

export function ordersConfig(reading: EnvReading): OrderSettings {
  return { departureChangeMaxDays: readEnv(ordersEnv, reading).DEPARTURE_CHANGE_MAX_DAYS };
}
