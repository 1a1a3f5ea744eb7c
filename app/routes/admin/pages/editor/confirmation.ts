/** A question the Pages editor asks before a step that replaces text (reset, discard, restore). */
export interface Confirmation {
  title: string;
  description: string;
  confirm: string;
  run: () => void;
}
