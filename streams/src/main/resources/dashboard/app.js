/* ssdpulse dashboard: run list, live run view (SSE), comparison. Talks only to this server's /api. */
(function () {
  'use strict';
  var OP_COLORS = { READ: '#2b6cb0', WRITE: '#dd6b20', TRIM: '#2f855a', FLUSH: '#6b46c1' };
  var RUN_COLORS = ['#2b6cb0', '#dd6b20', '#2f855a', '#c53030', '#6b46c1', '#b7791f', '#319795', '#d53f8c'];
  var THRESHOLDS_MS = [10, 30, 50, 100, 200];
  var OP_NAMES = ['READ', 'WRITE', 'TRIM', 'FLUSH'];
  var token = null;
  var m = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
  if (m) { token = decodeURIComponent(m[1]); sessionStorage.setItem('ssdpulse-token', token); }
  else { token = sessionStorage.getItem('ssdpulse-token'); }
  /* #run=ID opens a run, #compare=ID,ID ticks runs for the comparison; #snapshot draws what the API has once, with
   * no live stream and no polling, so that a headless browser's screenshot (README) finds the page idle once drawn. */
  function hashParam(name) { var h = new RegExp('(?:^|[#&])' + name + '(?:=([^&]*))?(?:&|$)').exec(location.hash); return h ? decodeURIComponent(h[1] || '') : null; }
  var snapshot = hashParam('snapshot') != null;
  var wantedRun = hashParam('run');
  var wantedCompare = (hashParam('compare') || '').split(',').filter(Boolean);

  var runs = [];
  var groups = [];          // run groups, from /api/groups
  var selected = null;      // run id (a group's: group:NAME)
  var view = null;          // data of the selected run
  var source = null;        // EventSource of the selected run
  var resultSet = 'live';   // result set of the selected run shown ('live' = the run's own results)
  var resultSets = [];      // result sets of the selected run, from /result-sets
  var compare = {};         // run id, or run id + '@' + result set, -> true
  var compareData = {};     // run id -> {ops: {...}, bounds, wa}
  var redrawPending = false;
  var pending = 0;          // requests under way and drawings scheduled; published as <html data-pending> (0: all drawn)

  function track(delta) { pending += delta; document.documentElement.dataset.pending = String(pending); }
  /* The promise of a request, counted in `pending` until it settles. */
  function tracked(promise) {
    track(1);
    return promise.then(function (v) { track(-1); return v; }, function (e) { track(-1); throw e; });
  }

  track(0);
  function $(id) { return document.getElementById(id); }
  function esc(s) { return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
  function num(v, digits) { return v == null || !isFinite(v) ? '—' : Number(v).toLocaleString('en-US', { maximumFractionDigits: digits == null ? 1 : digits, minimumFractionDigits: 0 }); }
  function fixed(v, d) { return v == null || !isFinite(v) ? '—' : Number(v).toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }); }
  function ms(v) { return v == null || !isFinite(v) ? '—' : v >= 100 ? num(v, 0) : v >= 1 ? num(v, 2) : num(v, 3); }
  function withToken(url) { return token ? url + (url.indexOf('?') < 0 ? '?' : '&') + 'access_token=' + encodeURIComponent(token) : url; }
  function api(path) {
    var headers = token ? { Authorization: 'Bearer ' + token } : {};
    return tracked(fetch(path, { headers: headers }).then(function (r) {
      if (r.status === 404 || r.status === 204) return null; // 204: a run without that view (a verification)
      if (!r.ok) return r.json().then(function (e) { throw new Error(e.error || r.status); });
      return r.json();
    }));
  }
  function conn(ok, text) { var c = $('conn'); c.textContent = text; c.className = 'conn ' + (ok ? 'ok' : 'bad'); }
  function enc(id) { return encodeURIComponent(id); }
  /* Per-run API path of the selected result set (run id + '@' + name in the comparison keys). */
  function rsq(path, rs) { return rs && rs !== 'live' ? path + (path.indexOf('?') < 0 ? '?' : '&') + 'resultSet=' + encodeURIComponent(rs) : path; }
  function runPath(key, sub) {
    var at = key.indexOf('@'), id = at < 0 ? key : key.substring(0, at), rs = at < 0 ? null : key.substring(at + 1);
    return rsq('api/runs/' + enc(id) + (sub ? '/' + sub : ''), rs);
  }
  function duration(s) {
    if (s == null) return '—';
    if (s < 120) return num(s, 1) + ' s';
    var h = Math.floor(s / 3600), mnt = Math.floor(s % 3600 / 60), sec = Math.round(s % 60);
    return (h ? h + ' h ' : '') + mnt + ' min ' + sec + ' s';
  }

  /* ---------- run list ---------- */
  function loadGroups() {
    return api('api/groups').then(function (list) {
      groups = list || [];
      renderGroups();
    }).catch(function () { /* a server without groups: none shown */ });
  }
  function renderGroups() {
    $('groups-card').hidden = groups.length === 0;
    var html = groups.map(function (g) {
      return '<tr data-run="' + esc(g.groupId) + '"' + (g.groupId === selected ? ' class="selected"' : '') + '><td><strong>' + esc(g.group) + '</strong></td>' +
        '<td><span class="badge ' + esc(g.status || 'RUNNING') + '">' + esc(g.status || 'RUNNING') + '</span></td><td class="num">' + g.members.length + '</td><td>' +
        g.members.map(function (m) { return esc(m.member) + ' (' + esc(m.host || '?') + ', ' + num(m.ioShare * 100, 1) + ' %' + (m.status ? ', ' + esc(m.status) : '') + ')'; }).join('; ') + '</td></tr>';
    }).join('');
    var body = $('groups').tBodies[0];
    if (body.innerHTML !== html) body.innerHTML = html;
  }
  $('groups').addEventListener('click', function (e) {
    var tr = e.target.closest('tr[data-run]');
    if (tr) select(tr.getAttribute('data-run'));
  });
  /* The members of the selected group, who and where they ran, their share of the group's I/O. */
  function renderMembers() {
    var g = groups.filter(function (x) { return x.groupId === selected; })[0];
    $('members-wrap').hidden = !g;
    if (!g) { $('members').innerHTML = ''; return; }
    $('members').innerHTML = '<tr><th scope="col">member</th><th scope="col">host</th><th scope="col">run</th><th scope="col">status</th><th scope="col" class="num">start (s)</th><th scope="col" class="num">I/Os</th><th scope="col" class="num">share of I/Os</th><th scope="col" class="num">share of bytes</th></tr>' +
      g.members.map(function (m) {
        return '<tr' + (m.reason ? ' title="' + esc(m.reason) + '"' : '') + '><td>' + esc(m.member) + '</td><td>' + esc(m.host || '—') + '</td><td>' + esc(m.runId) + '</td><td>' + esc(m.status || 'RUNNING') +
          '</td><td class="num">' + num(m.startOffsetS, 3) + '</td><td class="num">' + num(m.ioCount, 0) + '</td><td class="num">' + num(m.ioShare * 100, 1) + ' %</td><td class="num">' + num(m.bytesShare * 100, 1) + ' %</td></tr>';
      }).join('');
  }

  function loadRuns() {
    loadGroups().then(function () { if (view) renderMembers(); });
    return api('api/runs').then(function (list) {
      runs = list || [];
      conn(true, 'live · ' + runs.length + ' run' + (runs.length === 1 ? '' : 's'));
      renderRuns();
      if (!selected && runs.length) select(wantedRun && runs.some(function (r) { return r.runId === wantedRun; }) ? wantedRun : pickDefault());
      if (wantedCompare.length) { var ids = wantedCompare; wantedCompare = []; ids.forEach(function (id) { toggleCompare(id, true); }); }
    }).catch(function (e) { conn(false, 'API error: ' + e.message); });
  }
  function pickDefault() {
    var live = runs.filter(function (r) { return r.status === 'RUNNING'; });
    return (live.length ? live[live.length - 1] : runs[runs.length - 1]).runId;
  }
  var runsHtml = null;
  function renderRuns() {
    var body = $('runs').tBodies[0];
    var html = !runs.length ? '<tr><td colspan="10" class="empty">no runs yet</td></tr>' : runs.map(function (r) {
      var dev = r.device || {};
      return '<tr data-run="' + esc(r.runId) + '"' + (r.runId === selected ? ' class="selected"' : '') + '>' +
        '<td><input type="checkbox" aria-label="compare ' + esc(r.runName || r.runId) + '" data-compare="' + esc(r.runId) + '"' + (compare[r.runId] ? ' checked' : '') + '></td>' +
        '<td><strong>' + esc(r.runName || r.runId) + '</strong><br><small>' + esc(r.runId) + (r.group ? ' · member ' + esc(r.member) + ' of group ' + esc(r.group) : '') + '</small></td>' +
        '<td><span class="badge ' + esc(r.status) + '">' + esc(r.status) + '</span></td>' +
        '<td>' + esc(r.producerKind || '—') + '</td>' +
        '<td>' + esc(dev.model || '—') + '</td>' +
        '<td>' + esc(dev.capacityText || '—') + '</td>' +
        '<td>' + esc(r.workload || '—') + '</td>' +
        '<td>' + (r.startEpochMs ? esc(new Date(r.startEpochMs).toLocaleString()) : '—') + '</td>' +
        '<td class="num">' + duration(r.durationS) + '</td>' +
        '<td class="num">' + (r.ioCount == null ? '—' : num(r.ioCount, 0)) + '</td></tr>';
    }).join('');
    // rebuilt only when something changed, so a row or checkbox is not replaced under the user's pointer
    if (html !== runsHtml) { body.innerHTML = html; runsHtml = html; }
  }
  $('runs').addEventListener('click', function (e) {
    var box = e.target.closest('input[data-compare]');
    if (box) { toggleCompare(box.getAttribute('data-compare'), box.checked); return; }
    var tr = e.target.closest('tr[data-run]');
    if (tr) select(tr.getAttribute('data-run'));
  });

  /* ---------- selected run ---------- */
  function select(runId, rs) {
    if (source) { source.close(); source = null; }
    if (runId !== selected) { resultSets = []; }
    selected = runId;
    resultSet = rs || 'live';
    var key = resultSet === 'live' ? runId : runId + '@' + resultSet;
    view = { ops: {}, open: {}, bounds: [], wa: [], phases: [], verdicts: [], summary: null, status: null, detail: null,
      scatter: newScatter(), streamAttempts: 0 };
    renderRuns(); renderGroups(); renderMembers();
    $('run').hidden = false;
    $('run-title').textContent = runId;
    $('dl-series').href = withToken(runPath(key, 'series.csv'));
    $('dl-summary').href = withToken(runPath(key, 'summary.csv'));
    $('dl-json').href = withToken(runPath(key, 'summary'));
    var v = view;
    v.key = key;
    // the previous run's charts and tables go now, not when this run's data arrives: until then (a slow or
    // refused answer) nothing of that run may show under this run's title
    renderFacts(); renderPhases(); renderVerdicts(); renderSummary(); drawRun();
    loadResultSets(runId);
    loadScatter(v);
    loadView(v, 0);
    loadVerification(v);
  }

  /* Runs again after 1, 2, 4, then every 5 s while the same view is shown; counted as pending until it runs. */
  function retryLater(v, attempt, again) {
    track(1);
    setTimeout(function () { try { if (v === view) again(); } finally { track(-1); } },
      Math.min(1000 * Math.pow(2, attempt), 5000));
  }

  /* The run's detail and series so far, then its live stream from the last point. A refused answer (503 while
   * the views rebalance or restore after a restart, or no server) is asked again: a live run never stays frozen. */
  function loadView(v, attempt) {
    Promise.all([api(runPath(v.key)), api(runPath(v.key, 'series'))]).then(function (res) {
      if (v !== view) return;
      v.detail = res[0];
      v.status = res[0] && res[0].status;
      var s = res[1];
      if (s) {
        v.bounds = s.binUpperBoundsMs;
        Object.keys(s.ops).forEach(function (op) {
          var map = v.ops[op] = new Map();
          s.ops[op].forEach(function (p) { map.set(p.t, p); });
        });
        Object.keys(s.open || {}).forEach(function (op) { v.open[op] = s.open[op]; });
      }
      renderFacts(); refreshSide(); scheduleRedraw();
      if (v.scatter.failed) loadScatter(v);
      if (!snapshot) openStream(v);
    }).catch(function (e) {
      if (v !== view) return;
      conn(false, 'API error: ' + e.message + ' (retrying)');
      retryLater(v, attempt, function () { loadView(v, attempt + 1); });
    });
  }

  function lastT(map) { var t = -1; map.forEach(function (p) { t = Math.max(t, p.t); }); return t; }

  /* The latest window start (s) received of any op, -1 before the first. */
  function lastPointT(v) {
    var lastT = -1;
    Object.keys(v.ops).forEach(function (op) { v.ops[op].forEach(function (p) { lastT = Math.max(lastT, p.t); }); });
    return lastT;
  }

  function openStream(v) {
    var lastT = lastPointT(v);
    var es = source = new EventSource(withToken(runPath(v.key, 'events' + (lastT >= 0 ? '?from=' + lastT : ''))));
    var key = v.key;
    es.addEventListener('window', function (e) {
      if (v !== view) return;
      var p = JSON.parse(e.data);
      if (!v.ops[p.op]) v.ops[p.op] = new Map();
      v.ops[p.op].set(p.t, p);
      // the closed window replaces the provisional one the view showed for it
      if (v.open[p.op] && v.open[p.op].t <= p.t) delete v.open[p.op];
      $('chart-iops').dataset.lastWindowT = String(p.t);
      if (!v.bounds.length) api(runPath(key, 'series?from=' + p.t + '&to=' + p.t)).then(function (s) { if (s) { v.bounds = s.binUpperBoundsMs; scheduleRedraw(); } });
      scatterSoon(v);
      scheduleRedraw();
    });
    es.addEventListener('open', function (e) {
      if (v !== view) return;
      var p = JSON.parse(e.data), last = v.ops[p.op] ? lastT(v.ops[p.op]) : -1;
      if (p.t > last) { v.open[p.op] = p; scheduleRedraw(); }
    });
    es.addEventListener('wa', function (e) { if (v === view) { v.wa.push(JSON.parse(e.data)); scheduleRedraw(); } });
    es.addEventListener('status', function (e) {
      if (v !== view) return;
      v.status = JSON.parse(e.data).status; renderFacts(); refreshSide(); loadRuns();
    });
    es.addEventListener('summary', function (e) {
      if (v !== view) return;
      v.status = JSON.parse(e.data).status; refreshSide(); loadRuns();
    });
    es.onerror = function () {
      if (v !== view || es !== source) return;
      if (es.readyState !== EventSource.CLOSED) { conn(false, 'live stream interrupted, retrying…'); return; }
      // an answer other than a stream (503 while the views restore, too many streams) ends an EventSource for
      // good: it is opened again here, from the last point received
      conn(false, 'live stream refused, retrying…');
      source = null;
      retryLater(v, v.streamAttempts++, function () { if (!source) openStream(v); });
    };
    es.onopen = function () { if (v === view) { v.streamAttempts = 0; conn(true, 'live'); } };
  }

  function refreshSide() {
    var v = view, key = view.key;
    // a running run has no summary yet (the API answers 404): asked for once the run has ended
    var ended = v.status && v.status !== 'RUNNING';
    Promise.all([api(runPath(key, 'phases')), api(runPath(key, 'steady-state')),
      ended ? api(runPath(key, 'summary')) : Promise.resolve(null), api(runPath(key, 'wa'))]).then(function (r) {
      if (v !== view) return;
      v.phases = r[0] ? r[0].phases : []; v.verdicts = r[1] ? r[1].verdicts : []; v.summary = r[2];
      if (r[3]) v.wa = r[3].intervals;
      renderPhases(); renderVerdicts(); renderSummary(); scheduleRedraw();
      if (v.scatter.chunks.length) drawScatter(); // its phase marks by name
    }).catch(function () { /* the next status/summary event or poll retries */ });
    loadVerification(v);
  }

  function refreshVerdicts() {
    var v = view;
    api(runPath(view.key, 'steady-state')).then(function (r) {
      if (v !== view || !r) return;
      v.verdicts = r.verdicts; renderVerdicts(); scheduleRedraw();
    }).catch(function () { /* retried on the next tick */ });
  }

  /* wallClockStart (ISO-8601); runs recorded before it existed have only the retired ns field */
  function startedAt(r) {
    return r.wallClockStart ? new Date(r.wallClockStart) : new Date(r.wallClockStartEpochNs / 1e6);
  }

  function renderFacts() {
    var d = view.detail, st = $('run-status');
    st.textContent = view.status || ''; st.className = 'badge ' + (view.status || '');
    var g = groups.filter(function (x) { return x.groupId === selected; })[0];
    if (g) {
      $('run-title').textContent = 'group ' + g.group;
      $('run-facts').textContent = ['run group of ' + g.members.length + ' member' + (g.members.length === 1 ? '' : 's') + ', merged exactly (histograms, not averages)',
        'time 0 = start of its first member, ' + new Date(g.originEpochMs).toLocaleString(), g.reason ? g.reason : null].filter(Boolean).join(' · ');
      return;
    }
    if (!d || !d.run) { $('run-facts').textContent = ''; return; }
    var r = d.run, host = r.host || {};
    $('run-title').textContent = (r.runName || r.runId);
    $('run-facts').textContent = [r.producerKind, d.deviceText, 'workload ' + r.workload.name, 'seed ' + r.seed,
      host.ioScheduler ? 'scheduler ' + host.ioScheduler : null, host.kernel ? 'kernel ' + host.kernel : null,
      'started ' + startedAt(r).toLocaleString(),
      r.originRunId ? 'played back from ' + r.originRunId : null,
      r.group ? 'member ' + r.member + ' of group ' + r.group : null,
      resultSet !== 'live' ? 'result set ' + resultSet + ' (' + rsSettings(resultSet) + ')' : null].filter(Boolean).join(' · ');
  }

  /* Every window of an op received, in time order. Once the run has ended, a last window the run covers only in
   * part (the run ended inside it) is marked `partial`, with the seconds it covers (`coveredS`). */
  function allPoints(op) {
    var m = view.ops[op];
    if (!m) return [];
    var endS = view.summary ? view.summary.durationNs / 1e9 : Infinity;
    return Array.from(m.values()).sort(function (a, b) { return a.t - b.t; }).map(function (p) {
      return p.t + (p.windowS || 0) <= endS + 1e-9 ? p : Object.assign({}, p, { partial: true, coveredS: Math.max(0, endS - p.t) });
    });
  }
  /* The windows drawn over time: a partial last window is left out, its rate over the whole window would draw a
   * dip that never happened. Counts (totals, thresholds, bins) use allPoints: every I/O counted once. */
  function points(op) { return allPoints(op).filter(function (p) { return !p.partial; }); }
  function opsPresent() { return ['READ', 'WRITE', 'TRIM', 'FLUSH'].filter(function (op) { return (view.ops[op] && view.ops[op].size) || view.open[op]; }); }

  /* Whether a phase runs on a drive that no phase before it preconditioned (SNIA PTS's purge + workload-independent
   * preconditioning): a fresh-out-of-box drive can meet the PTS criterion on its early plateau, before a cliff. */
  function freshOutOfBox(phaseIndex) {
    return !(view.phases || []).some(function (p) {
      return p.index < phaseIndex && /^PRECONDITION/.test(p.kind || '');
    });
  }
  /* When the steady state of a phase was lost: the earliest loss a tracked (fio) criterion of that phase reports
   * and still reports (not steady again); null when none did. SNIA PTS's own verdict is final and never lost. */
  function lostAtS(phaseIndex) {
    var lost = (view.verdicts || []).filter(function (v) {
      return v.phaseIndex === phaseIndex && v.lostAtNs != null && v.steadyNow === false;
    }).map(function (v) { return v.lostAtNs / 1e9; });
    return lost.length ? Math.min.apply(null, lost) : null;
  }
  /* The steady state of the first verdict that reached (SNIA PTS's first: its caveat is the one a reader must not
   * miss), shaded. A steady state that was lost later is shaded up to the loss and says "later lost at T s", with a
   * mark at T; one steady again after the loss is shaded a second time. The SNIA PTS band carries the standard's
   * caveat where no phase before it preconditioned the drive: steady by PTS while fresh-out-of-box. */
  function bands() {
    var reached = (view.verdicts || []).filter(function (v) { return v.reached; });
    reached.sort(function (a, b) { return (/^SNIA/.test(b.method) ? 1 : 0) - (/^SNIA/.test(a.method) ? 1 : 0); });
    var v = reached[0];
    if (!v) return [];
    var what = v.method + ', ' + (v.allOps ? 'all ops' : v.op);
    if (/^SNIA/.test(v.method)) {
      var lost = lostAtS(v.phaseIndex);
      return [{ from: v.windowStartNs / 1e9, to: v.windowEndNs / 1e9, label: 'steady (' + what + ') by PTS' +
        (freshOutOfBox(v.phaseIndex) ? ' while fresh-out-of-box' : '') +
        (lost != null && lost >= v.windowEndNs / 1e9 ? ', later lost at ' + Math.round(lost) + ' s' : '') }];
    }
    if (v.lostAtNs == null) return [{ from: v.windowStartNs / 1e9, to: v.windowEndNs / 1e9, label: 'steady (' + what + ')' }];
    var spanS = (v.windowEndNs - v.windowStartNs) / 1e9, lostS = v.lostAtNs / 1e9;
    var out = [{ from: Math.max(0, v.reachedAtNs / 1e9 - spanS), to: lostS, label: 'steady (' + what + '), later lost at ' + Math.round(lostS) + ' s' }];
    if (v.steadyNow) out.push({ from: v.windowStartNs / 1e9, to: v.windowEndNs / 1e9, label: 'steady again' });
    return out;
  }
  /* The mark where the shaded steady state was lost (a tracked criterion's loss after the shaded span began). */
  function lostMarks() {
    var b = bands()[0];
    var first = (view.verdicts || []).filter(function (v) { return v.reached; })
      .sort(function (a, c) { return (/^SNIA/.test(c.method) ? 1 : 0) - (/^SNIA/.test(a.method) ? 1 : 0); })[0];
    if (!b || !first) return [];
    var lost = first.lostAtNs != null && !/^SNIA/.test(first.method) ? first.lostAtNs / 1e9 : lostAtS(first.phaseIndex);
    return lost == null || lost < b.from ? [] : [{ x: lost, label: 'steady state lost at ' + Math.round(lost) + ' s', color: '#c53030', top: true }];
  }
  /* Phase starts: from /phases (the summary's spans once the run ended), else from the windows seen so far,
   * so a live run's marks move with the SSE stream without re-reading the whole series on the server. */
  function marks() {
    var starts = {};
    (view.phases || []).forEach(function (p) { if (p.startS != null) starts[p.index] = p.startS; });
    Object.keys(view.ops).forEach(function (op) {
      view.ops[op].forEach(function (p) { if (starts[p.phase] == null || (!view.summary && p.t < starts[p.phase])) starts[p.phase] = p.t; });
    });
    // phases that start at the same time (a simulator's purge and fill take none) share one mark
    var byX = [];
    Object.keys(starts).forEach(function (i) {
      var named = (view.phases || []).filter(function (p) { return String(p.index) === i; })[0];
      var label = named ? named.name : 'phase ' + i, same = byX.filter(function (m) { return Math.abs(m.x - starts[i]) < 1e-9; })[0];
      if (same) same.label += ', ' + label; else byX.push({ x: starts[i], label: label });
    });
    return byX;
  }

  function scheduleRedraw() {
    if (redrawPending) return;
    redrawPending = true;
    track(1);
    requestAnimationFrame(function () { redrawPending = false; try { if (view) drawRun(); } finally { track(-1); } });
  }

  /* The windows still filling, dashed from the last closed point: provisional, replaced once closed. */
  function filling(field) {
    return Object.keys(view.open).filter(function (o) { return view.ops[o] || view.open[o]; }).map(function (o) {
      var p = view.open[o], closed = points(o), last = closed[closed.length - 1];
      var pts = (last ? [[last.t, last[field]]] : []).concat([[p.t, p[field]]]);
      return { label: o + ' (filling)', color: OP_COLORS[o], dash: [3, 3], dots: !last, points: pts };
    });
  }
  function renderOpen() {
    var parts = Object.keys(view.open).map(function (o) { var p = view.open[o]; return o + ' ' + num(p.ioCount, 0) + ' I/Os'; });
    $('open-note').textContent = parts.length ? 'window from ' + num(view.open[Object.keys(view.open)[0]].t, 0) + ' s still filling (provisional, dashed): ' + parts.join(', ') : '';
  }

  function drawRun() {
    var ops = opsPresent(), sel = $('op-select'), cur = sel.value;
    if (sel.options.length !== ops.length) {
      sel.innerHTML = ops.map(function (op) { return '<option>' + op + '</option>'; }).join('');
      if (ops.indexOf(cur) >= 0) sel.value = cur;
    }
    var op = sel.value || ops[0];
    var common = { xLabel: 'run time (s)', bands: bands(), marks: marks().concat(lostMarks()) };
    Charts.line($('chart-iops'), Object.assign({ yLabel: 'IOPS', series: ops.map(function (o) { return { label: o, color: OP_COLORS[o], points: points(o).map(function (p) { return [p.t, p.iops]; }) }; }).concat(filling('iops')) }, common));
    Charts.line($('chart-mbps'), Object.assign({ yLabel: 'MB/s', series: ops.map(function (o) { return { label: o, color: OP_COLORS[o], points: points(o).map(function (p) { return [p.t, p.mbPerSec]; }) }; }).concat(filling('mbPerSec')) }, common));
    renderOpen();
    var pts = op ? points(op) : [];
    Charts.line($('chart-latency'), Object.assign({ yLabel: op ? op + ' latency (ms)' : 'ms', logY: true, series: [
      { label: 'max', color: '#c53030', points: pts.map(function (p) { return [p.t, p.latencyMs.max]; }) },
      { label: 'p99', color: '#dd6b20', points: pts.map(function (p) { return [p.t, p.latencyMs.p99]; }) },
      { label: 'p50', color: '#2b6cb0', points: pts.map(function (p) { return [p.t, p.latencyMs.p50]; }) },
      { label: 'mean', color: '#718096', points: pts.map(function (p) { return [p.t, p.latencyMs.mean]; }) },
      { label: 'outlier windows', color: '#e53e3e', dots: true, points: pts.filter(function (p) { return p.latencyMs.max >= 10; }).map(function (p) { return [p.t, p.latencyMs.max]; }) }
    ] }, common));
    drawBins(op, op ? allPoints(op) : []);
    var wa = view.wa || [];
    Charts.line($('chart-wa'), Object.assign({ yLabel: 'WA', series: [
      { label: 'cumulative', color: '#6b46c1', points: wa.map(function (w) { return [w.toS, w.waCumulative]; }) },
      { label: 'bounds (counter steps)', color: '#805ad5', dash: [4, 3], points: wa.map(function (w) { return [w.toS, w.waCumulativeLow == null ? NaN : w.waCumulativeLow]; }) },
      { color: '#805ad5', dash: [4, 3], points: wa.map(function (w) { return [w.toS, w.waCumulativeHigh == null ? NaN : w.waCumulativeHigh]; }) },
      { label: 'per interval', color: '#b794f4', points: wa.map(function (w) { return [w.toS, w.waWindow]; }) }
    ] }, common));
    renderTotals(ops);
    if (!view.summary && view.phases && view.phases.length) renderPhases();
    if ($('chart-scatter').clientWidth !== view.scatter.drawnWidth) drawScatter();
  }

  /* ---------- latency scatter ---------- */
  /* The run's scatter as chunks of typed arrays, one per answer of /scatter?format=binary: the first holds every
   * closed window so far, later ones (a live run) the windows closed since. Windows never change once closed. */
  function newScatter() {
    return { chunks: [], lastStartNs: -1, lastSizeNs: 0, thresholdNs: 0, ioCount: 0, atOrAbove: 0, kept: 0, shown: 0,
      present: [false, false, false, false], loading: false, again: false, failed: false, timer: null, drawnWidth: -1 };
  }
  function binaryApi(path) {
    var headers = token ? { Authorization: 'Bearer ' + token } : {};
    return tracked(fetch(path, { headers: headers }).then(function (r) {
      if (r.status === 404 || r.status === 204) return null; // 204: a run without that view (a verification)
      if (!r.ok) return r.json().then(function (e) { throw new Error(e.error || r.status); });
      return r.arrayBuffer();
    }));
  }
  /* The binary answer (API.md): views on the buffer, nothing parsed or copied. */
  function decodeScatter(buf) {
    var magic = String.fromCharCode.apply(null, new Uint8Array(buf, 0, 8));
    if (magic !== 'SSDSCAT1') throw new Error('unexpected scatter answer');
    var dv = new DataView(buf), w = dv.getInt32(8, true), n = dv.getInt32(12, true);
    var cols = new Float64Array(buf, 24, 6 * w), at = 24 + 48 * w;
    return { windows: w, n: n, thresholdNs: dv.getFloat64(16, true), startNs: cols.subarray(0, w),
      sizeNs: cols.subarray(w, 2 * w), ioCount: cols.subarray(2 * w, 3 * w), atOrAbove: cols.subarray(3 * w, 4 * w),
      kept: cols.subarray(4 * w, 5 * w), shown: cols.subarray(5 * w, 6 * w),
      timeNs: new Float64Array(buf, at, n), latencyNs: new Float64Array(buf, at + 8 * n, n), op: new Uint8Array(buf, at + 16 * n, n) };
  }
  function sum(a) { var t = 0; for (var i = 0; i < a.length; i++) t += a[i]; return t; }
  /* Windows of a live run close every second or so and arrive in bursts (one SSE event per op): one request per burst. */
  function scatterSoon(v) {
    if (v.scatter.timer) return;
    track(1);
    v.scatter.timer = setTimeout(function () {
      v.scatter.timer = null;
      try { if (v === view) loadScatter(v); } finally { track(-1); }
    }, 400);
  }
  function loadScatter(v) {
    var sc = v.scatter;
    if (sc.loading) { sc.again = true; return; }
    sc.loading = true;
    var from = sc.lastStartNs >= 0 ? '&from=' + (sc.lastStartNs + sc.lastSizeNs / 2) / 1e9 : '';
    var t0 = performance.now();
    sc.failed = false;
    binaryApi(runPath(v.key, 'scatter?format=binary' + from)).then(function (buf) {
      if (v !== view || !buf) return;
      var t1 = performance.now(), ch = decodeScatter(buf);
      if (ch.windows > 0) {
        sc.chunks.push(ch);
        sc.lastStartNs = ch.startNs[ch.windows - 1]; sc.lastSizeNs = ch.sizeNs[ch.windows - 1];
        sc.thresholdNs = ch.thresholdNs;
        sc.ioCount += sum(ch.ioCount); sc.atOrAbove += sum(ch.atOrAbove); sc.kept += sum(ch.kept); sc.shown += ch.n;
        for (var i = 0; i < ch.n; i++) sc.present[ch.op[i]] = true;
      }
      drawScatter();
      var t2 = performance.now(), canvas = $('chart-scatter');
      // what the browser test times: request to pixels, and its parts
      canvas.dataset.loadMs = (t2 - t0).toFixed(1); canvas.dataset.fetchMs = (t1 - t0).toFixed(1);
      canvas.dataset.drawMs = (t2 - t1).toFixed(1); canvas.dataset.bytes = String(buf.byteLength);
    }).catch(function (e) { sc.failed = true; conn(false, 'API error: ' + e.message); }).then(function () {
      sc.loading = false;
      if (sc.again) { sc.again = false; loadScatter(v); }
    });
  }
  function drawScatter() {
    var sc = view.scatter, canvas = $('chart-scatter');
    var endS = Math.max(sc.lastStartNs >= 0 ? (sc.lastStartNs + sc.lastSizeNs) / 1e9 : 0, view.summary ? view.summary.durationNs / 1e9 : 0);
    Charts.scatter(canvas, { chunks: sc.chunks, colors: OP_NAMES.map(function (o) { return OP_COLORS[o]; }), opNames: OP_NAMES,
      present: sc.present, thresholdNs: sc.thresholdNs, x0S: 0, x1S: endS, marks: marks(), xLabel: 'run time (s)', yLabel: 'latency (ms)' });
    sc.drawnWidth = canvas.clientWidth;
    var others = sc.ioCount - sc.atOrAbove, sampled = sc.shown - sc.kept, thr = Charts.fmt(sc.thresholdNs / 1e6) + ' ms';
    $('scatter-note').textContent = !sc.ioCount ? '' : '— ' + num(sc.shown, 0) + ' points of ' + num(sc.ioCount, 0) + ' I/Os: ' +
      (sc.kept === sc.atOrAbove ? 'all ' + num(sc.atOrAbove, 0) + ' at or above ' + thr : num(sc.kept, 0) + ' of the ' + num(sc.atOrAbove, 0) + ' at or above ' + thr + ' (a window held more than the cap)') +
      ', and ' + num(sampled, 0) + ' of the ' + num(others, 0) + ' below (' + fixed(others ? sampled / others * 100 : 0, 2) + ' %)';
  }

  function binLabels(bounds) {
    var out = bounds.map(function (b) { return '≤' + (b >= 1000 ? (b / 1000) + ' s' : b + ' ms'); });
    if (bounds.length) out.push('>' + (bounds[bounds.length - 1] / 1000) + ' s');
    return out;
  }
  function sumBins(pts) {
    var sums = [];
    pts.forEach(function (p) { p.bins.forEach(function (c, i) { sums[i] = (sums[i] || 0) + c; }); });
    return sums;
  }
  function aboveCounts(bounds, sums) {
    return THRESHOLDS_MS.map(function (t) {
      var edge = bounds.indexOf(t), n = 0;
      if (edge < 0) return null;
      for (var i = edge + 1; i < sums.length; i++) n += sums[i] || 0;
      return n;
    });
  }
  function drawBins(op, pts) {
    var bounds = view.bounds || [], sums = sumBins(pts), above = aboveCounts(bounds, sums);
    var ths = THRESHOLDS_MS.map(function (t, k) { var e = bounds.indexOf(t); return e < 0 ? null : { index: e + 1, short: t + ' ms', label: '≥' + t + ' ms: ' + num(above[k], 0) }; }).filter(Boolean);
    Charts.bars($('chart-bins'), { labels: binLabels(bounds), values: bounds.length ? sums : [], color: op ? OP_COLORS[op] : '#3182ce', thresholds: ths });
    var rows = '<tr><th scope="col">op</th>' + THRESHOLDS_MS.map(function (t) { return '<th scope="col" class="num">≥ ' + t + ' ms</th>'; }).join('') + '</tr>';
    opsPresent().forEach(function (o) {
      var a = aboveCounts(bounds, sumBins(allPoints(o)));
      rows += '<tr><td>' + o + '</td>' + a.map(function (n) { return '<td class="num">' + (n == null ? '—' : num(n, 0)) + '</td>'; }).join('') + '</tr>';
    });
    $('thresholds').innerHTML = rows;
  }

  /* Totals over every window received; once the run has ended they equal its summary: a last window the run covers
   * only in part is counted (marked *), its rates over the part it covers. */
  function renderTotals(ops) {
    var rows = '<tr><th scope="col">op</th><th scope="col" class="num">windows</th><th scope="col" class="num">I/Os</th><th scope="col" class="num">mean IOPS</th><th scope="col" class="num">mean MB/s</th><th scope="col" class="num">last IOPS</th><th scope="col" class="num">worst window p99 (ms)</th><th scope="col" class="num">max (ms)</th></tr>';
    var partialNote = null;
    ops.forEach(function (op) {
      var pts = allPoints(op), ios = 0, bytes = 0, secs = 0, p99 = 0, max = 0, partial = null;
      pts.forEach(function (p) {
        ios += p.ioCount; bytes += p.bytes; secs += p.partial ? p.coveredS : p.windowS;
        p99 = Math.max(p99, p.latencyMs.p99); max = Math.max(max, p.latencyMs.max);
        if (p.partial) partial = p;
      });
      var whole = points(op);
      if (partial) partialNote = partial;
      rows += '<tr><td>' + op + '</td><td class="num">' + whole.length + (partial ? ' + 1*' : '') + '</td><td class="num">' + num(ios, 0) + '</td><td class="num">' + num(secs ? ios / secs : 0, 0) +
        '</td><td class="num">' + fixed(secs ? bytes / secs / 1e6 : 0, 1) + '</td><td class="num">' + num(whole.length ? whole[whole.length - 1].iops : null, 0) + '</td><td class="num">' + ms(p99) + '</td><td class="num">' + ms(max) + '</td></tr>';
    });
    $('totals').innerHTML = rows;
    $('totals-title').textContent = view.summary ? 'Totals' : 'Totals so far';
    $('totals-note').textContent = partialNote ? '* the last window, from ' + num(partialNote.t, 0) + ' s, is partial: the run ended ' +
      (partialNote.coveredS < 1 ? num(partialNote.coveredS * 1000, 1) + ' ms' : num(partialNote.coveredS, 1) + ' s') + ' into it; its I/Os are counted, its rates are over that part (it is not drawn on the charts).' : '';
  }

  /* While the run is live the spans come from the windows received so far (the summary's once it ended). */
  function livePhaseSpans() {
    var spans = {};
    Object.keys(view.ops).forEach(function (op) {
      view.ops[op].forEach(function (p) {
        var s = spans[p.phase] || (spans[p.phase] = { startS: p.t, endS: p.t + p.windowS });
        s.startS = Math.min(s.startS, p.t); s.endS = Math.max(s.endS, p.t + p.windowS);
      });
    });
    return spans;
  }
  function renderPhases() {
    if (!view.summary) {
      var spans = livePhaseSpans();
      (view.phases || []).forEach(function (p) { if (spans[p.index]) { p.startS = spans[p.index].startS; p.endS = spans[p.index].endS; } });
    }
    var rows = '<tr><th scope="col">#</th><th scope="col">name</th><th scope="col">kind</th><th scope="col" class="num">start (s)</th><th scope="col" class="num">end (s)</th></tr>';
    (view.phases || []).forEach(function (p) {
      rows += '<tr' + (p.timesFromNeighbours ? ' title="no I/O in this phase: its times are where the phase before it ended and the next one started"' : '') + '><td>' + p.index + '</td><td>' + esc(p.name) + '</td><td>' + esc(p.kind) + (p.timesFromNeighbours ? ' <span class="hint">(no I/O)</span>' : '') + '</td><td class="num">' + num(p.startS, 1) + '</td><td class="num">' + num(p.endS, 1) + '</td></tr>';
    });
    $('phases').innerHTML = rows;
  }
  function renderVerdicts() {
    var rows = '<tr><th scope="col">phase</th><th scope="col">op</th><th scope="col">method</th><th scope="col">verdict</th><th scope="col" class="num">window (s)</th><th scope="col" class="num">mean</th></tr>';
    var vs = view.verdicts || [];
    if (!vs.length) rows += '<tr><td colspan="6" class="empty">no verdict yet</td></tr>';
    vs.forEach(function (v) {
      rows += '<tr title="' + esc(v.explanation) + '"><td>' + v.phaseIndex + '</td><td>' + (v.allOps ? 'ALL' : v.op) + '</td><td>' + esc(v.method) + '</td><td>' + (v.reached ? '<strong>reached</strong>' : 'not reached') + (v.reachedAtNs != null ? ' at ' + num(v.reachedAtNs / 1e9, 0) + ' s' : '') +
        (v.lostAtNs != null ? ', <strong class="lost">lost</strong> at ' + num(v.lostAtNs / 1e9, 0) + ' s' + (v.steadyNow ? ', steady again' : '') : '') +
        (v.finalVerdict ? '' : ' (provisional)') +
        '</td><td class="num">' + num(v.windowStartNs / 1e9, 0) + '–' + num(v.windowEndNs / 1e9, 0) + '</td><td class="num">' + num(v.mean, 1) + '</td></tr>';
    });
    $('verdicts').innerHTML = rows;
  }
  function renderSummary() {
    var s = view.summary;
    $('summary-note').textContent = s ? '(' + s.status + ', ' + duration(s.durationNs / 1e9) + ', WA ' + (s.writeAmplification.cumulative == null ? 'n/a' : num(s.writeAmplification.cumulative, 2) + (s.writeAmplification.resolved === false ? ', not yet resolvable: ' + num(s.writeAmplification.low, 2) + ' to ' + (s.writeAmplification.high == null ? 'unbounded' : num(s.writeAmplification.high, 2)) : '')) + ')' : '(appears when the run ends)';
    if (!s) { $('summary').innerHTML = ''; return; }
    var rows = '<tr><th scope="col">op</th><th scope="col" class="num">I/Os</th><th scope="col" class="num">IOPS</th><th scope="col" class="num">MB/s</th><th scope="col" class="num">mean</th><th scope="col" class="num">p50</th><th scope="col" class="num">p99</th><th scope="col" class="num">p99.9</th><th scope="col" class="num">p99.99</th><th scope="col" class="num">max</th>' +
      THRESHOLDS_MS.map(function (t) { return '<th scope="col" class="num">≥' + t + ' ms</th>'; }).join('') + '</tr>';
    s.ops.forEach(function (o) {
      var l = o.latencyNs;
      rows += '<tr><td>' + o.op + '</td><td class="num">' + num(o.ioCount, 0) + '</td><td class="num">' + num(o.iops, 0) + '</td><td class="num">' + num(o.mbPerSec, 1) + '</td>' +
        [l.mean, l.p50, l.p99, l['p99.9'], l['p99.99'], l.max].map(function (v) { return '<td class="num">' + ms(v / 1e6) + ' ms</td>'; }).join('') +
        THRESHOLDS_MS.map(function (t) { return '<td class="num">' + num(o.countAtOrAbove[t + 'ms'], 0) + '</td>'; }).join('') + '</tr>';
    });
    $('summary').innerHTML = rows;
  }
  $('op-select').addEventListener('change', scheduleRedraw);

  /* ---------- power-loss verification (ssdpulse verify): shown when the run has one ---------- */
  function loadVerification(v) {
    if (v.verification === undefined) renderVerification(); // none shown until this run's arrives
    api(runPath(v.key, 'verification')).then(function (r) {
      if (v !== view) return;
      v.verification = r; renderVerification();
    }).catch(function () { /* asked again with the run's next refresh */ });
  }
  function nsText(ns) { return ns >= 1e9 ? num(ns / 1e9, 1) + ' s' : ns >= 1e6 ? num(ns / 1e6, 0) + ' ms' : num(ns / 1e3, 0) + ' µs'; }
  var MODEL_TEXT = { ACKNOWLEDGED: 'every acknowledged write', FLUSHED: 'acknowledged before the last FLUSH', FUA: 'FUA writes' };
  function renderVerification() {
    var x = view.verification, box = $('verification');
    box.hidden = !x;
    if (!x) return;
    var c = x.coverage, k = x.classes;
    $('verification-note').textContent = '(' + num(x.unitsChecked, 0) + ' units of 4 KiB checked on ' + x.target +
      ' at ' + new Date(x.verifiedAt).toLocaleString() + '; the log covers the run to ' + num(c.coveredUntilNs / 1e9, 3) +
      ' s' + (x.runStatus ? ', run ' + x.runStatus : ', no RunFinished: the producer stopped') + ')';
    $('verification-classes').innerHTML = '<tr><th scope="col">intact</th><th scope="col">lost</th><th scope="col">torn</th><th scope="col">reverted</th><th scope="col">unlogged</th><th scope="col">lost writes</th><th scope="col">unserializable</th><th scope="col">unsafe shutdowns</th></tr><tr>' +
      [k.intact, k.lost, k.torn, k.reverted, k.unlogged, x.lostWrites, x.unserializableWrites].map(function (n, i) {
        return '<td class="num' + (i > 0 && i < 4 && n > 0 ? ' lost' : '') + '">' + num(n, 0) + '</td>';
      }).join('') + '<td class="num">' + (x.powerCounters.unsafeShutdownsBefore == null ? '—' : num(x.powerCounters.unsafeShutdownsBefore, 0)) +
      ' → ' + (x.powerCounters.unsafeShutdownsAfter == null ? '—' : num(x.powerCounters.unsafeShutdownsAfter, 0)) + '</td></tr>';
    $('verification-models').innerHTML = '<tr><th scope="col">durability model</th><th scope="col" class="num">lost units</th><th scope="col" class="num">of required</th><th scope="col" class="num">lost / torn / reverted</th></tr>' +
      x.models.map(function (m) {
        return '<tr><td>' + esc(MODEL_TEXT[m.model] || m.model) + '</td><td class="num' + (m.lostUnits > 0 ? ' lost' : '') + '">' + num(m.lostUnits, 0) +
          '</td><td class="num">' + num(m.requiredUnits, 0) + '</td><td class="num">' + num(m.lostAsLost, 0) + ' / ' + num(m.lostAsTorn, 0) + ' / ' + num(m.lostAsReverted, 0) + '</td></tr>';
      }).join('');
    var most = Math.max.apply(null, x.lostAgeCounts.concat([1]));
    $('verification-ages').innerHTML = '<tr><th scope="col">lost writes completed … before the last logged completion</th><th scope="col" class="num">writes</th></tr>' +
      x.lostAgeCounts.map(function (n, i) {
        var label = i < x.lostAgeBoundsNs.length ? '≤ ' + nsText(x.lostAgeBoundsNs[i]) : '> ' + nsText(x.lostAgeBoundsNs[i - 1]);
        return '<tr><td>' + label + ' <span class="bar" style="width:' + Math.round(120 * n / most) + 'px"></span></td><td class="num">' + num(n, 0) + '</td></tr>';
      }).join('');
    $('verification-worst').innerHTML = !x.worstCases.length ? '' : '<tr><th scope="col">LBA</th><th scope="col" class="num">units</th><th scope="col" class="num">write</th><th scope="col">found</th><th scope="col">holds</th><th scope="col" class="num">before the end</th><th scope="col">FUA</th><th scope="col">flushed</th></tr>' +
      x.worstCases.map(function (w) {
        return '<tr><td>' + num(w.lba, 0) + '</td><td class="num">' + num(w.units, 0) + '</td><td class="num">' + w.writeSequence + '</td><td>' + esc(w.found) +
          '</td><td>' + esc(w.content) + '</td><td class="num">' + nsText(w.ageNs) + '</td><td>' + (w.fua ? 'yes' : '') + '</td><td>' + (w.flushed ? 'yes' : '') + '</td></tr>';
      }).join('');
  }

  /* ---------- result sets of the selected run ---------- */
  function rsSettings(name) {
    var rs = resultSets.filter(function (x) { return x.name === name; })[0], s = rs && rs.settings;
    if (!s) return '';
    return ['window ' + s.windowNs / 1e9 + ' s', 'SNIA round ' + s.sniaRoundNs / 1e9 + ' s', s.fioCriteria ? 'fio ' + s.fioCriteria : null].filter(Boolean).join(', ');
  }
  function loadResultSets(runId) {
    return api('api/runs/' + enc(runId) + '/result-sets').then(function (r) {
      if (runId !== selected) return;
      resultSets = r ? r.resultSets : [];
      var sel = $('rs-select'), html = resultSets.map(function (x) { return '<option value="' + esc(x.name) + '">' + esc(x.name) + '</option>'; }).join('');
      if (sel.innerHTML !== html) sel.innerHTML = html || '<option value="live">live</option>';
      sel.value = resultSet;
      var box = $('rs-compare');
      box.hidden = resultSets.length < 2;
      box.innerHTML = 'compare result sets: ' + resultSets.map(function (x) {
        var key = x.name === 'live' ? runId : runId + '@' + x.name;
        return '<label><input type="checkbox" data-compare-rs="' + esc(x.name) + '"' + (compare[key] ? ' checked' : '') + '> ' + esc(x.name) + '</label>';
      }).join(' ');
      renderFacts();
    }).catch(function () { /* older server or not reachable: live only */ });
  }
  $('rs-select').addEventListener('change', function () { select(selected, $('rs-select').value); });
  $('rs-compare').addEventListener('change', function (e) {
    var box = e.target.closest('input[data-compare-rs]');
    if (!box) return;
    var name = box.getAttribute('data-compare-rs');
    toggleCompare(name === 'live' ? selected : selected + '@' + name, box.checked);
  });

  /* ---------- comparison ---------- */
  function toggleCompare(runId, on) {
    if (on) compare[runId] = true; else delete compare[runId];
    $('compare').hidden = Object.keys(compare).length === 0;
    loadCompare();
  }
  function loadCompare() {
    var ids = Object.keys(compare);
    return Promise.all(ids.map(function (id) {
      return Promise.all([api(runPath(id, 'series')), api(runPath(id, 'summary')), api(runPath(id, 'wa')), api(runPath(id, ''))]).then(function (r) {
        compareData[id] = { series: r[0], summary: r[1], wa: r[2] ? r[2].intervals : [], run: r[3] && r[3].run };
      });
    })).then(drawCompare).catch(function (e) { conn(false, 'API error: ' + e.message); });
  }
  function runName(key) {
    var at = key.indexOf('@'), id = at < 0 ? key : key.substring(0, at);
    var r = runs.filter(function (x) { return x.runId === id; })[0], name = r && r.runName ? r.runName : id;
    return at < 0 ? name : name + ' [' + key.substring(at + 1) + ']';
  }
  function drawCompare() {
    var ids = Object.keys(compare).filter(function (id) { return compareData[id]; });
    var stats = ids.map(function (id, k) {
      var d = compareData[id], s = d.series || { ops: {}, binUpperBoundsMs: [] }, byT = new Map(), ios = 0, bytes = 0, secs = new Map(), sums = [];
      // as on the run's own charts: a last window the run covers only in part counts its I/Os over the part it
      // covers, and is not drawn (its rate over the whole window would be a dip that never happened)
      var endS = d.summary ? d.summary.durationNs / 1e9 : Infinity;
      Object.keys(s.ops).forEach(function (op) {
        s.ops[op].forEach(function (p) {
          var partial = p.t + p.windowS > endS + 1e-9;
          if (!partial) byT.set(p.t, (byT.get(p.t) || 0) + p.iops);
          ios += p.ioCount; bytes += p.bytes; secs.set(p.t, partial ? Math.max(0, endS - p.t) : p.windowS);
          p.bins.forEach(function (c, i) { sums[i] = (sums[i] || 0) + c; });
        });
      });
      var seconds = 0; secs.forEach(function (w) { seconds += w; });
      var p99 = null;
      if (d.summary && d.summary.ops.length) p99 = Math.max.apply(null, d.summary.ops.map(function (o) { return o.latencyNs.p99 / 1e6; }));
      var wa = d.wa.length ? d.wa[d.wa.length - 1].waCumulative : null;
      var run = d.run || {};
      return { id: id, device: run.device ? run.device.model : null, scheduler: run.host ? run.host.ioScheduler : null,
        color: RUN_COLORS[k % RUN_COLORS.length], points: Array.from(byT.entries()).sort(function (a, b) { return a[0] - b[0]; }),
        iops: seconds ? ios / seconds : null, mbps: seconds ? bytes / seconds / 1e6 : null, p99: p99, above: aboveCounts(s.binUpperBoundsMs, sums), wa: wa };
    });
    Charts.line($('chart-compare'), { xLabel: 'run time (s)', yLabel: 'IOPS', series: stats.map(function (st) { return { label: runName(st.id), color: st.color, points: st.points }; }) });
    function mean(f) { var v = stats.map(f).filter(function (x) { return x != null && isFinite(x); }); return v.length ? v.reduce(function (a, b) { return a + b; }, 0) / v.length : null; }
    var mIops = mean(function (s) { return s.iops; }), mMb = mean(function (s) { return s.mbps; }), mP99 = mean(function (s) { return s.p99; }), mWa = mean(function (s) { return s.wa; });
    function pct(v, mv) { return v == null || !mv ? '—' : num(v / mv * 100, 1) + ' %'; }
    var rows = '<tr><th scope="col">run</th><th scope="col" class="num">mean IOPS</th><th scope="col" class="num">% of mean</th><th scope="col" class="num">mean MB/s</th><th scope="col" class="num">% of mean</th><th scope="col" class="num">p99 (ms)</th><th scope="col" class="num">% of mean</th>' +
      THRESHOLDS_MS.map(function (t) { return '<th scope="col" class="num">≥' + t + ' ms</th>'; }).join('') + '<th scope="col" class="num">WA</th></tr>';
    stats.forEach(function (s) {
      rows += '<tr><td><span style="color:' + s.color + '">■</span> ' + esc(runName(s.id)) + '</td><td class="num">' + num(s.iops, 0) + '</td><td class="num">' + pct(s.iops, mIops) + '</td><td class="num">' + fixed(s.mbps, 1) +
        '</td><td class="num">' + pct(s.mbps, mMb) + '</td><td class="num">' + ms(s.p99) + '</td><td class="num">' + pct(s.p99, mP99) + '</td>' +
        s.above.map(function (n) { return '<td class="num">' + (n == null ? '—' : num(n, 0)) + '</td>'; }).join('') + '<td class="num">' + num(s.wa, 2) + '</td></tr>';
    });
    if (stats.length > 1) {
      rows += '<tr class="mean"><td>mean of ' + stats.length + ' runs</td><td class="num">' + num(mIops, 0) + '</td><td class="num">100 %</td><td class="num">' + num(mMb, 1) + '</td><td class="num">100 %</td><td class="num">' + ms(mP99) + '</td><td class="num">' + (mP99 == null ? '—' : '100 %') + '</td>' +
        THRESHOLDS_MS.map(function (t, k) { return '<td class="num">' + num(mean(function (s) { return s.above[k]; }), 1) + '</td>'; }).join('') + '<td class="num">' + num(mWa, 2) + '</td></tr>';
    }
    $('compare-table').innerHTML = rows;
    drawSchedulers(stats);
  }
  // Seed 002's table: the compared runs grouped by device and the I/O scheduler they recorded, each run's MB/s as %
  // of its group's mean, and a device's mean as % of the first device's with the same scheduler.
  function drawSchedulers(stats) {
    var groups = [], byKey = {};
    stats.forEach(function (s) {
      if (!s.scheduler || s.mbps == null) return;
      var key = s.device + '\u0000' + s.scheduler;
      if (!byKey[key]) { byKey[key] = { device: s.device, scheduler: s.scheduler, runs: [] }; groups.push(byKey[key]); }
      byKey[key].runs.push(s);
    });
    var table = $('compare-schedulers');
    table.hidden = groups.length === 0;
    if (!groups.length) { table.innerHTML = ''; return; }
    groups.forEach(function (g) { g.mean = g.runs.reduce(function (a, s) { return a + s.mbps; }, 0) / g.runs.length; });
    var first = groups[0].device;
    var rows = '<tr><th scope="col">device</th><th scope="col">I/O scheduler</th><th scope="col" class="num">runs</th><th scope="col">each run: MB/s (% of mean)</th><th scope="col" class="num">mean MB/s</th><th scope="col" class="num">% of ' + esc(first) + '</th></tr>';
    groups.forEach(function (g) {
      var ref = byKey[first + '\u0000' + g.scheduler];
      rows += '<tr><td>' + esc(g.device) + '</td><td>' + esc(g.scheduler) + '</td><td class="num">' + g.runs.length + '</td><td>' +
        g.runs.map(function (s) { return '<span style="color:' + s.color + '">■</span> ' + fixed(s.mbps, 1) + ' (' + num(s.mbps / g.mean * 100, 1) + ' %)'; }).join('; ') +
        '</td><td class="num">' + fixed(g.mean, 1) + '</td><td class="num">' + (g.device === first || !ref ? '—' : num(g.mean / ref.mean * 100, 1) + ' %') + '</td></tr>';
    });
    table.innerHTML = rows;
  }

  window.addEventListener('resize', function () { scheduleRedraw(); if (Object.keys(compare).length) drawCompare(); });
  loadRuns();
  if (!snapshot) setInterval(function () {
    loadRuns();
    if (view && view.status === 'RUNNING') refreshVerdicts();
    if (Object.keys(compare).some(function (id) { var r = runs.filter(function (x) { return x.runId === id; })[0]; return r && r.status === 'RUNNING'; })) loadCompare();
    if (selected && resultSets.length < 2) loadResultSets(selected);
  }, 3000);
})();
