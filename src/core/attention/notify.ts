// Whether an attention change is worth a notification. The person chooses how much in a setting;
// whatever it says, nothing is announced about a worker whose log they are looking at, and
// nothing about their own doing (a stop, a new prompt) or a state the worker merely repeats (a
// failure that is a new one, a crash after a turn's error, is announced again).
import { z } from 'zod';
import type { Attention, AttentionInfo } from './attention';

export const NotifySettingSchema = z.enum(['all', 'needsInputAndFailures', 'none']);
export type NotifySetting = z.infer<typeof NotifySettingSchema>;
export const DEFAULT_NOTIFY_SETTING: NotifySetting = 'all';

export interface AttentionChange {
  workerId: string;
  name: string;
  /** null: the first state seen for this worker (it just started, or the window just opened). */
  from: Attention | null;
  to: AttentionInfo;
  /** The same state for a new reason: a worker that had failed failed anew (its crash after its turn's error). */
  again?: true;
  /** The end of a turn reported before, come back to once a question asked after it was answered. */
  retold?: true;
}

export type NotifyDecision =
  | { notify: false; why: string }
  | { notify: true; level: 'info' | 'warning' | 'error'; message: string };

export function decideNotification(setting: NotifySetting, change: AttentionChange, logVisible: boolean): NotifyDecision {
  const to = change.to.attention;
  if (setting === 'none') return { notify: false, why: 'notifications are off' };
  if (change.from === to && !change.again) return { notify: false, why: 'no change' };
  if (change.from === null) return { notify: false, why: 'first sight of the worker' };
  if (change.retold) return { notify: false, why: "that turn's end was told already" };
  if (logVisible) return { notify: false, why: 'its log is visible' };
  const message = `${change.name} ${change.to.reason}`;
  switch (to) {
    case 'needs-input':
      return { notify: true, level: 'warning', message };
    case 'failed':
      return { notify: true, level: 'error', message };
    case 'done':
      return setting === 'all' ? { notify: true, level: 'info', message } : { notify: false, why: 'only needs-input and failures are notified' };
    case 'stopped':
      // A Stop is the person's own doing; an exit on its own is not: the worker is gone, and a
      // prompt to it would only fail. Said as news, as a turn's end is (a crash is a failure).
      if (!change.to.exited) return { notify: false, why: 'a stop is not announced' };
      return setting === 'all' ? { notify: true, level: 'info', message } : { notify: false, why: 'only needs-input and failures are notified' };
    default:
      return { notify: false, why: `${to} is not announced` };
  }
}

/** The setting as read from the configuration; an unknown value falls back to the default, said. */
export function parseNotifySetting(value: unknown): { setting: NotifySetting; error: string | null } {
  if (value === undefined) return { setting: DEFAULT_NOTIFY_SETTING, error: null };
  const parsed = NotifySettingSchema.safeParse(value);
  return parsed.success
    ? { setting: parsed.data, error: null }
    : { setting: DEFAULT_NOTIFY_SETTING, error: `rpcWorkers.notifications: ${JSON.stringify(value)} is not one of all, needsInputAndFailures, none; using ${DEFAULT_NOTIFY_SETTING}` };
}
