import { describe, expect, it } from 'vitest';
import { mergeRows, parseReport, renderReport, type LastRun, type ReportRow } from '../../bench/report-table.ts';

const row = (bench: string, figure: string, median: string, measured: string, extra: Partial<ReportRow> = {}): ReportRow => ({
  bench,
  figure,
  engine: 'PGlite',
  median,
  p10p90: '1–2',
  minMax: '0–3',
  unit: 'ms',
  runs: '10',
  measured,
  note: '',
  ...extra,
});

const last: LastRun = {
  modules: ['perf'],
  machine: 'cpu, 2 cores',
  loadStart: '1.0 / 1.0 / 1.0',
  loadEnd: '1.1 / 1.0 / 1.0',
  date: '2026-12-07T06:00:00.000Z',
  seconds: 12,
};

describe('bench report merge', () => {
  const old = [
    row('operations', 'report_occupancy, 1,000 berths', '419.6', '2026-11-22 (load 2.4)'),
    row('perf', 'report_occupancy, after', '7.6', '2026-11-27 (load 1.0)'),
    row('perf', 'report_revenue, after', '1.6', '2026-11-27 (load 1.0)'),
    row('perf', 'report_revenue, after', '1.2', '2026-11-27 (load 1.0)', { engine: 'Postgres' }),
  ];

  it('replaces the row of each figure measured and keeps the others with their date', () => {
    const fresh = [row('perf', 'report_occupancy, after', '5.1', '2026-12-07 (load 0.9)')];
    const merged = mergeRows(old, fresh, ['operations', 'perf']);
    expect(merged.map((r) => [r.bench, r.figure, r.engine, r.median, r.measured])).toEqual([
      ['operations', 'report_occupancy, 1,000 berths', 'PGlite', '419.6', '2026-11-22 (load 2.4)'],
      ['perf', 'report_occupancy, after', 'PGlite', '5.1', '2026-12-07 (load 0.9)'],
      ['perf', 'report_revenue, after', 'PGlite', '1.6', '2026-11-27 (load 1.0)'],
      ['perf', 'report_revenue, after', 'Postgres', '1.2', '2026-11-27 (load 1.0)'],
    ]);
  });

  it('keeps one row per figure when a module reports a figure twice, and the same figure per engine and unit apart', () => {
    const fresh = [
      row('storage', 'upload 1 MB', '80', 'new'),
      row('storage', 'upload 1 MB', '12', 'new', { unit: 'per s' }),
      row('storage', 'upload 1 MB', '70', 'newer'),
    ];
    const merged = mergeRows([row('storage', 'upload 1 MB', '99', 'old')], fresh, ['storage']);
    expect(merged.map((r) => [r.unit, r.median])).toEqual([
      ['ms', '70'],
      ['per s', '12'],
    ]);
  });

  it('drops a module’s old FAILED row when it runs again, and keeps it when another module runs', () => {
    const failed = row('app', 'FAILED: Chromium did not start', '', 'old');
    expect(mergeRows([failed], [row('perf', 'x', '1', 'new')], ['app', 'perf']).map((r) => r.figure)).toEqual([
      'FAILED: Chromium did not start',
      'x',
    ]);
    expect(mergeRows([failed], [row('app', 'initial JS /start', '109.9', 'new')], ['app']).map((r) => r.figure)).toEqual([
      'initial JS /start',
    ]);
  });

  it('reads back what it writes, with one header paragraph', () => {
    const text = renderReport(old, last);
    const paragraphs = text.split('\n\n');
    expect(paragraphs[0]).toBe('# Benchmark report');
    expect(paragraphs[1]).toContain('Last run: perf on cpu, 2 cores');
    expect(paragraphs[1]).toContain('between 2026-11-22 and 2026-11-27');
    expect(paragraphs[2].startsWith('| benchmark |')).toBe(true);
    expect(paragraphs).toHaveLength(3);
    const back = parseReport(text);
    expect(back.rows).toEqual(old);
    expect(back.last).toEqual(last);
  });

  it('dates the rows of the earlier format by the latest run that named their module', () => {
    const legacy = [
      '# Benchmark report',
      '',
      'Machine: Xeon, 2 cores, 24 GiB, Node v20.20.2, linux. Load average (1 / 5 / 15 min) 2.4 / 6.6 / 6.8 at the start, 1.4 / 2.2 / 4.1 at the end. Date: 2026-11-22T06:36:05.297Z. Run took 717 s.',
      '',
      'Re-measured after the full run: perf, app. Machine: EPYC, 2 cores, 24 GiB, Node v24.21.0, linux. Load average (1 / 5 / 15 min) 4.7 / 5.2 / 6.2 at the start, 1.7 / 2.6 / 4.5 at the end. Date: 2026-11-27T04:43:13.422Z. Run took 525 s.',
      'Re-measured after the full run: perf. Machine: EPYC, 2 cores, 24 GiB, Node v24.21.0, linux. Load average (1 / 5 / 15 min) 1.0 / 1.0 / 1.3 at the start, 1.0 / 1.0 / 1.3 at the end. Date: 2026-11-28T06:03:01.128Z. Run took 213 s.',
      '',
      'Each figure is the median over the runs shown.',
      '',
      '| benchmark | figure | engine | median | p10–p90 | min–max | unit | runs | note |',
      '| --- | --- | --- | ---: | ---: | ---: | --- | ---: | --- |',
      '| operations | report_occupancy | PGlite | 419.63 | 388.19–517.86 | 388.19–517.86 | ms | 7 | seeded |',
      '| app | initial JS /start | Chromium | 109.9 | — | — | KB | 1 | gzip |',
      '| perf | report_occupancy, after | PGlite | 7.62 | 7.35–8.4 | 7–9 | ms | 10 | 1,000 berths |',
    ].join('\n');
    const { rows, last: read } = parseReport(legacy);
    expect(rows.map((r) => [r.bench, r.measured])).toEqual([
      ['operations', '2026-11-22 (load 2.4)'],
      ['app', '2026-11-27 (load 4.7)'],
      ['perf', '2026-11-28 (load 1.0)'],
    ]);
    expect(read).toMatchObject({ modules: ['perf'], date: '2026-11-28T06:03:01.128Z', seconds: 213 });
  });
});
