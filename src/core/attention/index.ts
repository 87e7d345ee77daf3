// Attention states and the notification policy (no vscode import; the UI adapts them).
export { attentionOf, lastEndedTurn, NOTHING_SEEN, seenNow, waitingCount, type Attention, type AttentionInfo, type SeenMark } from './attention';
export { AttentionBoard } from './board';
export {
  decideNotification, DEFAULT_NOTIFY_SETTING, NotifySettingSchema, parseNotifySetting,
  type AttentionChange, type NotifyDecision, type NotifySetting,
} from './notify';
