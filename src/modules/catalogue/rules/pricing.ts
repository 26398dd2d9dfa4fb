import type { Minor } from '../../../kernel/money';

/** What pricing needs to know of a package; the entity satisfies it. */
export interface PricedPackage {
  baseDurationDays: number;
  baseCtgPrice: Minor;
  extraDayPrice: Minor;
  includedDevices: Array<{ deviceId: string; name: string; description: string; quantity: number; dailyPrice: Minor }>;
}

export interface DevicePrice {
  deviceId: string;
  name: string;
  description: string;
  quantity: number;
  priceForDuration: Minor;
}

export interface PackagePrice {
  ctgPriceForDuration: Minor;
  includedDevices: DevicePrice[];
  includedDevicesPrice: Minor;
  totalAmount: Minor;
}

/**
 * Price of a package for a trip: the base price covers `baseDurationDays`, each further day
 * costs `extraDayPrice`, and every bundled device is charged per day of the trip.
 */
export function pricePackage(
  ctg: PricedPackage,
  days: number,
  excludedDeviceIds: ReadonlySet<string> = new Set(),
): PackagePrice {
  const extraDays = Math.max(0, days - ctg.baseDurationDays);
  const ctgPriceForDuration = ctg.baseCtgPrice + extraDays * ctg.extraDayPrice;
  const includedDevices = ctg.includedDevices
    .filter((device) => !excludedDeviceIds.has(device.deviceId))
    .map((device) => ({
      deviceId: device.deviceId,
      name: device.name,
      description: device.description,
      quantity: device.quantity,
      priceForDuration: device.dailyPrice * device.quantity * days,
    }));
  const includedDevicesPrice = includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
  return {
    ctgPriceForDuration,
    includedDevices,
    includedDevicesPrice,
    totalAmount: ctgPriceForDuration + includedDevicesPrice,
  };
}
