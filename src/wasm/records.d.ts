/** What the record functions return: Ecto's `valid?`, its errors (field to messages, most recent
 * first) and the record with the valid changes applied (`apply_changes`). */
export interface Changeset {
  valid: boolean;
  errors: { [field: string]: string[] };
  record: DisplayMessage;
}
