/** What the party on the ground must do now, answered with every case. */
export function deskInstruction(phone: string, caseRef: string): string {
  return `Call the assistance desk now on ${phone} and quote ${caseRef}. Do not book an evacuation before the desk authorises it.`;
}
