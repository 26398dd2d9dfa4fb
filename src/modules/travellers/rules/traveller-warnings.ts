import type { Schemas } from '../../../kernel/http/wire';

export type TravellerWarning = Schemas['TravellerWarning'];

/**
 * What a certificate reader would trip on in a traveller's record (decision record 0103): a name
 * not in Latin letters with no name as in the passport. The registration accepts it (the seed's
 * travellers have such names, and no passport field is refused after the fact); the warning says
 * what the certificate prints meanwhile and how to add the name. `transliterated` is the reading
 * aid the certificate prints, or undefined for a script without a table.
 */
export function travellerWarnings(
  traveller: { id: string; name: string; nameAsInPassport?: string | null },
  reading: { latin: boolean; transliterated?: string },
): TravellerWarning[] {
  if (traveller.nameAsInPassport || reading.latin) return [];
  const meanwhile =
    reading.transliterated === undefined
      ? 'the certificate says no Latin name was given and the verification page shows no initials'
      : `the certificate prints "${reading.transliterated}" marked (transliterated, not as in passport), and the verification page takes the initials from it`;
  return [
    {
      code: 'NAME_NOT_AS_IN_PASSPORT',
      field: 'nameAsInPassport',
      message: `The name is not in Latin letters and no nameAsInPassport was given: ${meanwhile}. Add the name as in the passport with PATCH /travellers/${traveller.id}.`,
    },
  ];
}
