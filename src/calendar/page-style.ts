/**
 * The calendar page's style sheet, inlined (the page must work from file:// and as a workflow
 * artifact: nothing is fetched). Account colours are `--a0`…`--a7`; a card's overlay (its plan
 * change) is a class `o-<overlay>`, its status a `s-<status>` badge.
 */
export const PAGE_STYLE = `
:root {
  --ink: #1c2430; --ink-2: #4a5565; --ink-3: #5f6979; --line: #dde2ea; --line-2: #eef1f5;
  --bg: #f6f7f9; --panel: #ffffff; --accent: #2454c7; --today: #fff7d6;
  --new: #15803d; --new-bg: #ecfdf3; --moved: #2454c7; --moved-bg: #eef3ff; --changed: #7c3aed; --changed-bg: #f5f0ff;
  --renamed: #475569; --renamed-bg: #f1f5f9; --deleted: #c81e1e; --deleted-bg: #fdf0f0; --unscheduled: #b45309; --unscheduled-bg: #fff6e8;
  --blocked: #a15c07; --blocked-bg: #fff4d6;
  --a0: #0f766e; --a1: #7c3aed; --a2: #c2410c; --a3: #1d4ed8; --a4: #be185d; --a5: #15803d; --a6: #a16207; --a7: #475569;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
button { font: inherit; color: inherit; cursor: pointer; }
h1, h2, h3, h4 { margin: 0; font-weight: 650; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }

.top { display: flex; align-items: center; gap: 18px; padding: 12px 20px; background: var(--panel); border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.top h1 { font-size: 18px; letter-spacing: -0.01em; }
.brand { display: flex; align-items: center; gap: 10px; }
.logo { width: 28px; height: 28px; border-radius: 7px; background: var(--accent); color: #fff; display: grid; place-items: center; font-weight: 700; font-size: 15px; }
.meta { color: var(--ink-3); font-size: 12.5px; display: flex; gap: 6px 14px; flex-wrap: wrap; }
.meta b { color: var(--ink-2); font-weight: 600; }
.counts { margin-left: auto; display: flex; gap: 6px; flex-wrap: wrap; }
.count { font-size: 12px; padding: 2px 9px; border-radius: 999px; border: 1px solid var(--line); background: var(--panel); color: var(--ink-2); white-space: nowrap; }
.count b { font-weight: 650; }
.live { font-size: 12px; color: var(--new); display: flex; align-items: center; gap: 6px; }
.live::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: var(--new); box-shadow: 0 0 0 3px var(--new-bg); }
.banner { margin: 10px 20px 0; padding: 8px 12px; border-radius: 8px; background: var(--unscheduled-bg); border: 1px solid #f3d7a8; color: #6b3d05; font-size: 13px; }

.toolbar { display: flex; align-items: center; gap: 10px; padding: 10px 20px; flex-wrap: wrap; }
.toolbar h2 { font-size: 20px; min-width: 190px; letter-spacing: -0.01em; }
.btn { border: 1px solid var(--line); background: var(--panel); border-radius: 7px; padding: 5px 11px; font-size: 13px; color: var(--ink); }
.btn:hover { border-color: #c3cad6; background: #fbfcfd; }
.btn:focus-visible, .card:focus-visible, .chip:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.seg { display: inline-flex; border: 1px solid var(--line); border-radius: 7px; overflow: hidden; background: var(--panel); }
.seg button { border: 0; background: none; padding: 5px 12px; font-size: 13px; color: var(--ink-2); }
.seg button[aria-pressed="true"] { background: var(--ink); color: #fff; }
.chips { display: flex; gap: 6px; flex-wrap: wrap; margin-left: auto; }
.chip { display: inline-flex; align-items: center; gap: 6px; border: 1px solid var(--line); background: var(--panel); border-radius: 999px; padding: 3px 10px 3px 8px; font-size: 12.5px; }
.chip[aria-pressed="false"] { opacity: 0.45; }
.chip small { color: var(--ink-3); }
.dot { width: 10px; height: 10px; border-radius: 50%; flex: none; display: inline-block; }

.layout { flex: 1; display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 16px; padding: 0 20px 20px; align-items: start; }
.view { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
.side { display: flex; flex-direction: column; gap: 14px; }
.box { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
.box h3 { font-size: 12.5px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--ink-2); margin-bottom: 10px; display: flex; justify-content: space-between; align-items: baseline; gap: 8px; flex-wrap: wrap; }
.box h3 span { color: var(--ink-3); font-weight: 500; text-transform: none; letter-spacing: 0; font-size: 12px; }
.empty { color: var(--ink-3); font-size: 13px; }

.weekdays, .month-row { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); }
.weekdays div { padding: 7px 10px; font-size: 12px; font-weight: 600; color: var(--ink-3); text-transform: uppercase; letter-spacing: 0.04em; border-bottom: 1px solid var(--line); }
.cell { container-type: inline-size; min-height: 128px; border-right: 1px solid var(--line-2); border-bottom: 1px solid var(--line-2); padding: 5px 6px 6px; display: flex; flex-direction: column; gap: 4px; min-width: 0; }
.month-row .cell:nth-child(7n) { border-right: 0; }
.cell.other { background: #fafbfc; }
.cell.other .day-num { color: var(--ink-3); font-weight: 500; }
.cell.today { background: var(--today); }
.day-num { font-size: 12.5px; font-weight: 600; color: var(--ink-2); padding: 1px 3px; display: flex; justify-content: space-between; }
.day-num small { font-weight: 500; color: var(--ink-3); }
.more { border: 0; background: none; color: var(--accent); font-size: 12px; text-align: left; padding: 1px 4px; }

.card { position: relative; display: flex; flex-direction: column; gap: 1px; text-align: left; width: 100%; border: 1px solid var(--line); border-left: 4px solid #c9d0db; border-radius: 6px; background: var(--panel); padding: 3px 6px 4px; font-size: 12.5px; line-height: 1.3; color: var(--ink); box-shadow: 0 1px 0 rgba(16, 24, 40, 0.03); }
.card:hover { border-color: #b8c1cf; box-shadow: 0 2px 6px rgba(16, 24, 40, 0.08); }
.card-head { display: flex; align-items: center; flex-wrap: wrap; gap: 2px 4px; min-width: 0; }
.card-time { font-weight: 650; font-variant-numeric: tabular-nums; }
.card-dots { display: inline-flex; gap: 2px; }
.card-dots .dot { width: 8px; height: 8px; }
.card-text { overflow: hidden; color: var(--ink-2); display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow-wrap: break-word; flex: 1; min-width: 0; }
.card .tag, .card .badge { margin-left: auto; }
.card .badge { font-size: 10px; line-height: 15px; padding: 0 5px; flex: none; }
.badge.icon { width: 17px; height: 17px; padding: 0; display: inline-grid; place-items: center; font-size: 10.5px; line-height: 1; }
.card .badge.icon { width: 16px; height: 16px; }
.card-head .tag { flex: none; max-width: 100%; }
.card.err::after { content: "!"; position: absolute; top: -6px; right: -6px; width: 16px; height: 16px; border-radius: 50%; background: var(--deleted); color: #fff; font-size: 11px; font-weight: 700; display: grid; place-items: center; }
.tag { font-size: 10px; font-weight: 700; letter-spacing: 0.05em; text-transform: uppercase; padding: 0 5px; border-radius: 4px; line-height: 16px; white-space: nowrap; }
.o-new { border-left-color: var(--new); background: var(--new-bg); } .o-new .tag, .tag.o-new { background: var(--new); color: #fff; }
.o-moved { border-left-color: var(--moved); background: var(--moved-bg); } .o-moved .tag, .tag.o-moved { background: var(--moved); color: #fff; }
.o-changed { border-left-color: var(--changed); background: var(--changed-bg); } .o-changed .tag, .tag.o-changed { background: var(--changed); color: #fff; }
.o-renamed { border-left-color: var(--renamed); background: var(--renamed-bg); } .o-renamed .tag, .tag.o-renamed { background: var(--renamed); color: #fff; }
.o-deleted { border-left-color: var(--deleted); background: var(--deleted-bg); } .o-deleted .tag, .tag.o-deleted { background: var(--deleted); color: #fff; }
.o-deleted .card-text { text-decoration: line-through; }
.o-unscheduled { border-left-color: var(--unscheduled); background: var(--unscheduled-bg); } .o-unscheduled .tag, .tag.o-unscheduled { background: var(--unscheduled); color: #fff; }
.o-blocked { border-left-color: var(--blocked); background: var(--blocked-bg); } .o-blocked .tag, .tag.o-blocked { background: var(--blocked); color: #fff; }
.card.ghost { background: repeating-linear-gradient(135deg, #fff, #fff 6px, #f4f6f9 6px, #f4f6f9 12px); border-style: dashed; border-left-style: dashed; }
.card.ghost .card-time { text-decoration: line-through; color: var(--ink-3); }
.card.pencilled { border-style: dashed; border-left-style: dashed; background: #fbfcfd; }
.card.ghost .card-text { color: var(--ink-3); }
.card.ghost .tag { background: none; padding: 0 2px; }
.card.ghost.o-moved .tag { color: var(--moved); } .card.ghost.o-unscheduled .tag { color: var(--unscheduled); }

.badge { display: inline-block; font-size: 11px; font-weight: 600; line-height: 17px; padding: 0 7px; border-radius: 999px; border: 1px solid var(--line); color: var(--ink-2); background: #f7f8fa; white-space: nowrap; }
.s-draft { background: #f1f3f6; color: #4a5565; border-color: #dde2ea; }
.s-scheduled, .s-pending { background: #eaf0ff; color: #1e44a8; border-color: #c9d6fb; }
.s-publishing, .s-waiting { background: #e6f7f6; color: #0b5e58; border-color: #b5e3df; }
.s-published { background: #e7f7ec; color: #12632f; border-color: #b9e4c6; }
.s-partially_published { background: #fff3e0; color: #8a4b05; border-color: #f4d3a1; }
.s-failed { background: #fdecec; color: #a61b1b; border-color: #f5c2c2; }
.s-ready { background: #e7f7ec; color: #12632f; border-color: #b9e4c6; }
.s-not-ready { background: #fdf1e3; color: #8a4b05; border-color: #f4d3a1; }

.week { display: grid; grid-template-columns: 56px repeat(7, minmax(0, 1fr)); }
.week .head { padding: 8px 8px; border-bottom: 1px solid var(--line); font-size: 12px; color: var(--ink-3); font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; }
.week .head b { display: block; font-size: 18px; color: var(--ink); text-transform: none; letter-spacing: 0; }
.week .head.today { background: var(--today); }
.hour { font-size: 11.5px; color: var(--ink-3); text-align: right; padding: 6px 8px 0 0; border-bottom: 1px solid var(--line-2); font-variant-numeric: tabular-nums; }
.slot { container-type: inline-size; border-left: 1px solid var(--line-2); border-bottom: 1px solid var(--line-2); padding: 3px 4px; min-height: 44px; display: flex; flex-direction: column; gap: 3px; min-width: 0; }
.slot.today { background: #fffcef; }
.week .card .card-text { white-space: normal; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; }

.tray { display: flex; flex-direction: column; gap: 6px; }
.plan-rows { display: flex; flex-wrap: wrap; gap: 6px; }
.plan-rows .tag { font-size: 11.5px; line-height: 20px; padding: 0 8px; letter-spacing: 0.02em; }
.box p.empty { margin: 6px 0 0; }
.box p code { white-space: nowrap; }
.status-key { font-size: 12px; color: var(--ink-2); display: inline-flex; align-items: center; gap: 4px; margin-right: 6px; }
.problem { font-size: 12.5px; padding: 6px 0; border-top: 1px solid var(--line-2); }
.problem:first-of-type { border-top: 0; }
.problem code { color: var(--ink-2); }
.sev-error { color: var(--deleted); font-weight: 650; } .sev-warning { color: var(--blocked); font-weight: 650; }
.legend { display: grid; grid-template-columns: 128px 1fr; gap: 7px 10px; align-items: center; font-size: 12.5px; color: var(--ink-2); }
.legend .card { padding: 3px 6px; pointer-events: none; }
.legend .card .tag { margin-left: 0; }
.statuses { display: flex; gap: 4px; flex-wrap: wrap; margin-top: 12px; padding-top: 10px; border-top: 1px solid var(--line-2); }

.details { position: fixed; top: 0; right: 0; bottom: 0; width: min(560px, 100vw); background: var(--panel); border-left: 1px solid var(--line); box-shadow: -12px 0 32px rgba(16, 24, 40, 0.14); overflow-y: auto; padding: 18px 20px 28px; z-index: 10; }
.details[hidden] { display: none; }
.details-head { display: flex; gap: 10px; align-items: flex-start; }
.details-head h2 { font-size: 17px; word-break: break-all; }
.details-head .btn { margin-left: auto; }
.facts { display: grid; grid-template-columns: 90px 1fr; gap: 4px 10px; margin: 12px 0; font-size: 13px; }
.facts dt { color: var(--ink-3); } .facts dd { margin: 0; word-break: break-word; }
.section { margin-top: 16px; }
.section > h3 { font-size: 12.5px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--ink-3); margin-bottom: 6px; }
.reasons { margin: 4px 0 0; padding-left: 18px; font-size: 13px; }
.fields { width: 100%; border-collapse: collapse; font-size: 12.5px; margin-top: 6px; }
.fields td { border-top: 1px solid var(--line-2); padding: 4px 6px; vertical-align: top; word-break: break-word; }
.fields td:first-child { color: var(--ink-3); white-space: nowrap; }
.before { color: var(--deleted); text-decoration: line-through; } .after { color: var(--new); }
.preview { border: 1px solid var(--line); border-radius: 10px; margin-top: 10px; overflow: hidden; }
.preview-head { display: flex; align-items: center; flex-wrap: wrap; gap: 4px 8px; padding: 8px 12px; border-bottom: 1px solid var(--line-2); background: #fafbfc; font-size: 13px; }
.preview-head .badge { margin-left: auto; }
.preview-body { padding: 10px 12px; }
.preview-title { font-weight: 650; margin-bottom: 4px; }
.caption { white-space: pre-wrap; word-break: break-word; font-size: 13.5px; }
.overflow { background: #fde2e2; color: #8f1515; text-decoration: line-through; text-decoration-color: rgba(143, 21, 21, 0.5); }
.cut { display: inline-block; font-size: 10.5px; font-weight: 700; color: #fff; background: var(--deleted); border-radius: 3px; padding: 0 4px; margin: 0 2px; vertical-align: 1px; text-decoration: none; white-space: nowrap; }
.length { font-size: 12px; color: var(--ink-3); margin-bottom: 6px; font-variant-numeric: tabular-nums; }
.length.over { color: var(--deleted); font-weight: 650; }
.options { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 8px; }
.option { font-size: 11.5px; background: var(--line-2); border-radius: 4px; padding: 1px 6px; color: var(--ink-2); }
.option b { font-weight: 600; color: var(--ink); }
.media { display: flex; gap: 8px; flex-wrap: wrap; margin-top: 8px; }
.thumb { width: 96px; height: 96px; border-radius: 8px; border: 1px solid var(--line); overflow: hidden; background: #eef1f5; position: relative; display: grid; place-items: center; font-size: 11.5px; color: var(--ink-2); text-align: center; }
.thumb > span { overflow-wrap: anywhere; padding: 0 4px; max-width: 100%; }
.thumb img { width: 100%; height: 100%; object-fit: cover; display: block; }
.thumb.video { background: #1f2733; color: #e8edf4; align-content: center; gap: 2px; padding: 0 4px 16px; }
.thumb.video .play { font-size: 22px; line-height: 1; }
.thumb .dur { position: absolute; right: 4px; bottom: 4px; background: rgba(0, 0, 0, 0.72); color: #fff; font-size: 11px; border-radius: 4px; padding: 0 4px; font-variant-numeric: tabular-nums; }
.diag { font-size: 13px; padding: 6px 8px; border-radius: 6px; margin-top: 6px; background: #fdf0f0; border: 1px solid #f5c2c2; }
.diag.warning { background: #fff6e8; border-color: #f4d3a1; }
.diag small { display: block; color: var(--ink-2); margin-top: 2px; }
`;
