// The list filters take a day (an <input type="date">, the user's own calendar) and the API takes
// instants: a day starts at local midnight, and "until" a day means before the next one starts.
// A day that is not a date (a hand-edited URL) is passed on as it is, for the schema to refuse.

function midnight(day: string, plusDays: number): string {
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return day;
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
}

/** `createdAfter` for "from this day on". */
export const dayStart = (day: string): string => midnight(day, 0);

/** `createdBefore` for "until this day, inclusive". */
export const dayEnd = (day: string): string => midnight(day, 1);
