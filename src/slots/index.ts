/**
 * Slots: `slots:` in postsync.yaml gives accounts weekly posting times, and a post with
 * `scheduledAt: next-slot` gets the earliest free one.
 *
 * What the plan pipeline relies on: `assignSlots(input)` is pure and runs after content reading
 * (repeats expanded, templates rendered: a `next-slot` text has no `{{ date }}`) and before the
 * schedule house rules (src/plan/schedule-policy.ts). It wants the `next-slot` posts as SlotRequests; `recorded`, the time
 * each of them was applied with, from the state (the state must keep it per key once applied:
 * the applied post's scheduledAt is that time); every other post with its time, as RulePosts
 * (standing `settled` when as applied); `others` as for the house rules; `config.slots`,
 * `config.rules`, `config.timezone`; account facts; and `now` (the run's clock). It returns one
 * SlotAssignment per request that got a time (`source` says whether it was kept from the state,
 * `slot` which slot, for the plan's reason: "time from slot Mon 09:00"), and errors for the
 * posts that got none (they are blocked, as invalid files are). The assigned posts go to the
 * house rules with `standing: 'slotted'` (or `settled` for recorded ones that are applied): they
 * break no rule, by construction.
 * Same files, state and `now` → same times on every machine: requests are served in key order and
 * times are worked out in `config.timezone`. A post with a recorded time keeps it, so a new post
 * never moves an applied one; posts not yet applied may move when an earlier key is added.
 */
export { assignSlots, type AssignSlotsInput, type AssignSlotsResult, type SlotAssignment, type SlotRequest } from './assign-slots.js';
export { isSlotOf, sharedSlotTimes, type SlotTime } from './slot-times.js';
