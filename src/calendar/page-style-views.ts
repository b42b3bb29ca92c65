/**
 * The page's style for its filters, thumbnails, open slots, the agenda of narrow screens, and the
 * widths it adapts to. What must stay true from 320 to 1920 px: no tag, badge, time or handle is
 * clipped or covers another (a card's head wraps rather than clips; tight cells use smaller tags),
 * and the page never scrolls sideways (test/calendar/page-layout.browser.test.ts asserts it).
 */
export const VIEW_STYLE = `
.filters { display: flex; align-items: center; gap: 8px 12px; flex-wrap: wrap; padding: 0 20px 10px; }
.search { font: inherit; font-size: 13px; border: 1px solid var(--line); border-radius: 7px; padding: 5px 10px; flex: 1 1 180px; max-width: 300px; min-width: 0; background: var(--panel); }
.search:focus-visible, .filters select:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.check { display: inline-flex; align-items: center; gap: 5px; font-size: 13px; color: var(--ink-2); }
.chips { display: flex; gap: 6px; flex-wrap: wrap; margin-left: auto; min-width: 0; }
.chip { max-width: 100%; }
.chip-label { min-width: 0; overflow-wrap: anywhere; }

/* A right-to-left text starts at the right, as on the networks (cards are buttons, aligned left). */
.card-text, .caption { text-align: start; }
.card-body { display: flex; align-items: flex-start; gap: 6px; min-width: 0; }
.card-thumb { width: 30px; height: 30px; flex: none; border-radius: 4px; object-fit: cover; background: var(--line-2); }
@container (max-width: 130px) {
  .card { padding: 3px 4px 4px; }
  .card .tag { font-size: 9px; letter-spacing: 0; padding: 0 3px; }
  .card-thumb { width: 22px; height: 22px; }
}

.free-slot { display: flex; align-items: center; gap: 4px; min-width: 0; border: 1px dashed #c3cad6; border-radius: 6px; padding: 1px 6px; font-size: 11.5px; color: var(--ink-3); font-variant-numeric: tabular-nums; }
.free-slot .dot { width: 7px; height: 7px; }
.free-time { font-weight: 600; color: var(--ink-2); }

.agenda { display: flex; flex-direction: column; list-style: none; margin: 0; padding: 0; }
.agenda-day { display: flex; flex-direction: column; gap: 6px; padding: 10px 12px 12px; border-bottom: 1px solid var(--line-2); }
.agenda-day:last-child { border-bottom: 0; }
.agenda-day.today { background: var(--today); }
.agenda-day h3 { font-size: 13px; color: var(--ink-2); }
.agenda-day h3 small { color: var(--ink-3); font-weight: 500; }
.agenda .card-text { -webkit-line-clamp: 3; }
.agenda .empty { margin: 0; padding: 16px; }

/* The skip link shows only once focused: the first Tab of the page. */
.skip-link { position: absolute; left: 12px; top: -80px; z-index: 20; background: var(--panel); color: var(--accent); border: 2px solid var(--accent); border-radius: 8px; padding: 10px 14px; font-weight: 600; }
.skip-link:focus { top: 12px; }
.view:focus { outline: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

@media (max-width: 1199px) {
  .layout { grid-template-columns: minmax(0, 1fr); }
  .side { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); align-items: start; }
}
@media (max-width: 699px) {
  .top, .toolbar { padding-left: 12px; padding-right: 12px; }
  .filters { padding: 0 12px 10px; }
  .layout { padding: 0 12px 12px; gap: 12px; }
  .toolbar { gap: 8px; }
  .toolbar h2 { min-width: 0; flex-basis: 100%; order: -1; font-size: 17px; }
  .search { max-width: none; flex-basis: 100%; }
  .chips { margin-left: 0; }
  .side { grid-template-columns: minmax(0, 1fr); }
  .details { padding: 14px 12px 24px; }
  .facts { grid-template-columns: 76px minmax(0, 1fr); }
  /* A finger's target: every control at least 44 px each way. */
  .btn, .seg button, .chip, .search, .filters select, .more, .check, .card, .free-slot { min-height: 44px; }
  .btn, .seg button, .chip, .more { min-width: 44px; }
  .chip, .btn, .seg button { display: inline-flex; align-items: center; justify-content: center; }
  .check input { width: 20px; height: 20px; margin: 0; }
  .free-slot { padding: 4px 10px; }
  .legend .card { min-height: 0; }
}
`;
