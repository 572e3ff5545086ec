/* Hand-drawn canvas charts for the ssdpulse dashboard: no library, no build step.
 * Charts.line(canvas, {series:[{label,color,points:[[x,y],...], dots?, dash?}], xLabel, yLabel, logY,
 *                      bands:[{from,to,color,label}], marks:[{x,label,color,top}], markers:[{x,y,color}]})
 * Charts.bars(canvas, {labels:[...], values:[...], color, logY, thresholds:[{index,label}]})
 * Charts.scatter(canvas, {chunks:[{n, timeNs:Float64Array, latencyNs:Float64Array, op:Uint8Array}], colors:[css per op],
 *                         opNames, thresholdNs, x0S, x1S, marks}) — x run time, y log latency, one pixel per point
 * Each sets canvas.dataset.points to the number of data points drawn (the browser test reads it). */
(function () {
  'use strict';
  var FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';

  function setup(canvas) {
    var ratio = window.devicePixelRatio || 1;
    var w = canvas.clientWidth || 600, h = canvas.clientHeight || 260;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
      canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
    }
    var ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.font = FONT;
    return { ctx: ctx, w: w, h: h };
  }

  function niceStep(range, count) {
    var raw = range / Math.max(1, count), mag = Math.pow(10, Math.floor(Math.log10(raw))), r = raw / mag;
    return (r >= 5 ? 10 : r >= 2 ? 5 : r >= 1 ? 2 : 1) * mag;
  }

  function fmt(v) {
    var a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
    if (a >= 1e4) return (v / 1e3).toFixed(0) + 'k';
    if (a >= 100) return v.toFixed(0);
    if (a >= 1) return (+v.toFixed(2)).toString();
    if (a === 0) return '0';
    return (+v.toPrecision(2)).toString();
  }

  function empty(c, text) {
    c.ctx.fillStyle = '#718096'; c.ctx.textAlign = 'center';
    c.ctx.fillText(text || 'no data yet', c.w / 2, c.h / 2);
  }

  /* A label from x inside [min, max]: wrapped at ", " onto more lines where one is too long, and moved left where it
   * would run past the plot's right edge (a band near the end of a run). */
  function label(ctx, text, x, y, min, max) {
    var lines = [], line = '';
    text.split(/(?<=, )/).forEach(function (part) {
      if (line && ctx.measureText(line + part).width > max - min) { lines.push(line); line = part; } else line += part;
    });
    if (line) lines.push(line);
    lines.forEach(function (l, k) {
      var w = ctx.measureText(l).width;
      ctx.fillText(l, Math.max(min, Math.min(x, max - w)), y + 13 * k);
    });
    return lines.length;
  }

  // The x ticks, the plot frame, the axis labels and the phase marks, the same on every x-y chart.
  function frame(c, o, X, x0, x1, L, T, pw, ph) {
    var ctx = c.ctx;
    ctx.textAlign = 'center';
    var sx = niceStep(x1 - x0, Math.max(2, Math.floor(pw / 80)));
    for (var t = Math.ceil(x0 / sx) * sx; t <= x1; t += sx) {
      ctx.beginPath(); ctx.moveTo(X(t), T + ph); ctx.lineTo(X(t), T + ph + 4); ctx.strokeStyle = '#a0aec0'; ctx.stroke();
      ctx.fillText(fmt(t), X(t), T + ph + 16);
    }
    ctx.strokeStyle = '#a0aec0'; ctx.strokeRect(L, T, pw, ph);
    if (o.xLabel) { ctx.fillText(o.xLabel, L + pw / 2, c.h - 3); }
    if (o.yLabel) { ctx.save(); ctx.translate(12, T + ph / 2); ctx.rotate(-Math.PI / 2); ctx.fillText(o.yLabel, 0, 0); ctx.restore(); }
    (o.marks || []).forEach(function (m) {
      var x = X(m.x); if (x < L - 1 || x > L + pw + 1) return;
      ctx.save(); ctx.setLineDash([4, 3]); ctx.strokeStyle = m.color || '#805ad5';
      ctx.beginPath(); ctx.moveTo(x, T); ctx.lineTo(x, T + ph); ctx.stroke(); ctx.restore();
      ctx.fillStyle = m.color || '#553c9a'; ctx.textAlign = 'left'; label(ctx, m.label, x + 3, m.top ? T + ph / 2 : T + ph - 4, L + 2, L + pw - 2);
    });
  }

  function line(canvas, o) {
    var c = setup(canvas), ctx = c.ctx, n = 0;
    var xs = [], ys = [];
    o.series.forEach(function (s) { s.points.forEach(function (p) { if (isFinite(p[1]) && (!o.logY || p[1] > 0)) { xs.push(p[0]); ys.push(p[1]); n++; } }); });
    canvas.dataset.points = String(n);
    // what the shading and the marks say, for tests and assistive tools (the canvas itself is only pixels)
    canvas.dataset.bands = (o.bands || []).map(function (b) { return b.label || ''; }).join(' | ');
    canvas.dataset.marks = (o.marks || []).map(function (m) { return m.label || ''; }).join(' | ');
    if (n === 0) { empty(c); return; }
    var L = 58, R = 12, T = 26, B = 34, pw = c.w - L - R, ph = c.h - T - B;
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs);
    (o.marks || []).forEach(function (m) { if (m.x < x0) x0 = Math.max(0, m.x); });
    if (x1 <= x0) x1 = x0 + 1;
    var y0, y1;
    if (o.logY) {
      y0 = Math.pow(10, Math.floor(Math.log10(Math.min.apply(null, ys))));
      y1 = Math.pow(10, Math.ceil(Math.log10(Math.max.apply(null, ys))));
      if (y1 <= y0) y1 = y0 * 10;
    } else {
      y0 = 0; y1 = Math.max.apply(null, ys) * 1.08; if (y1 <= 0) y1 = 1;
    }
    function X(x) { return L + (x - x0) / (x1 - x0) * pw; }
    function Y(y) { return o.logY ? T + ph - (Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0)) * ph : T + ph - (y - y0) / (y1 - y0) * ph; }
    // bands (steady state) and phase marks under the data
    var labelY = T + 12;
    (o.bands || []).forEach(function (b) {
      var a = Math.max(X(b.from), L), e = Math.min(X(b.to), L + pw);
      if (e <= a) return;
      ctx.fillStyle = b.color || 'rgba(72,187,120,.16)'; ctx.fillRect(a, T, e - a, ph);
      // each band's label below the one before, so that two bands' labels never overlap
      if (b.label) { ctx.fillStyle = '#276749'; ctx.textAlign = 'left'; labelY += 13 * label(ctx, b.label, a + 4, labelY, L + 4, L + pw - 4); }
    });
    ctx.strokeStyle = '#e2e8f0'; ctx.fillStyle = '#4a5568'; ctx.lineWidth = 1;
    // y grid
    ctx.textAlign = 'right';
    if (o.logY) {
      for (var d = y0; d <= y1 * 1.0001; d *= 10) {
        ctx.beginPath(); ctx.moveTo(L, Y(d)); ctx.lineTo(L + pw, Y(d)); ctx.stroke();
        ctx.fillText(fmt(d), L - 6, Y(d) + 4);
      }
    } else {
      var st = niceStep(y1 - y0, 5);
      for (var v = 0; v <= y1; v += st) {
        ctx.beginPath(); ctx.moveTo(L, Y(v)); ctx.lineTo(L + pw, Y(v)); ctx.stroke();
        ctx.fillText(fmt(v), L - 6, Y(v) + 4);
      }
    }
    frame(c, o, X, x0, x1, L, T, pw, ph);
    // series
    ctx.save(); ctx.beginPath(); ctx.rect(L, T, pw, ph); ctx.clip();
    o.series.forEach(function (s) {
      var pts = s.points.filter(function (p) { return isFinite(p[1]) && (!o.logY || p[1] > 0); });
      ctx.strokeStyle = s.color; ctx.fillStyle = s.color; ctx.lineWidth = s.width || 1.6; ctx.setLineDash(s.dash || []);
      if (s.dots) {
        pts.forEach(function (p) { ctx.beginPath(); ctx.arc(X(p[0]), Y(p[1]), 3, 0, 2 * Math.PI); ctx.fill(); });
        return;
      }
      ctx.beginPath();
      pts.forEach(function (p, i) { if (i === 0) ctx.moveTo(X(p[0]), Y(p[1])); else ctx.lineTo(X(p[0]), Y(p[1])); });
      ctx.stroke();
      if (pts.length === 1) { ctx.beginPath(); ctx.arc(X(pts[0][0]), Y(pts[0][1]), 2.5, 0, 2 * Math.PI); ctx.fill(); }
    });
    ctx.restore();
    // legend
    var lx = L + 4;
    ctx.textAlign = 'left';
    o.series.forEach(function (s) {
      if (!s.label) return;
      ctx.fillStyle = s.color; ctx.fillRect(lx, 8, 14, 4);
      ctx.fillStyle = '#2d3748'; ctx.fillText(s.label, lx + 18, 14);
      lx += 26 + ctx.measureText(s.label).width;
    });
  }

  function bars(canvas, o) {
    var c = setup(canvas), ctx = c.ctx;
    var total = o.values.reduce(function (a, b) { return a + b; }, 0);
    canvas.dataset.points = String(total > 0 ? o.values.length : 0);
    if (total === 0) { empty(c); return; }
    var L = 58, R = 12, T = 30, B = 48, pw = c.w - L - R, ph = c.h - T - B;
    var max = Math.max.apply(null, o.values), top = Math.pow(10, Math.ceil(Math.log10(Math.max(1, max))));
    function Y(v) { return v <= 0 ? T + ph : T + ph - (Math.log10(v) + 1) / (Math.log10(top) + 1) * ph; }
    ctx.strokeStyle = '#e2e8f0'; ctx.fillStyle = '#4a5568'; ctx.textAlign = 'right';
    for (var d = 1; d <= top; d *= 10) {
      ctx.beginPath(); ctx.moveTo(L, Y(d)); ctx.lineTo(L + pw, Y(d)); ctx.stroke(); ctx.fillText(fmt(d), L - 6, Y(d) + 4);
    }
    var bw = pw / o.values.length;
    o.values.forEach(function (v, i) {
      ctx.fillStyle = o.color || '#3182ce';
      if (v > 0) ctx.fillRect(L + i * bw + 1, Y(v), bw - 2, T + ph - Y(v));
    });
    ctx.fillStyle = '#4a5568'; ctx.textAlign = 'right';
    o.labels.forEach(function (lab, i) {
      ctx.save(); ctx.translate(L + i * bw + bw / 2 + 4, T + ph + 6); ctx.rotate(-Math.PI / 4); ctx.fillText(lab, 0, 0); ctx.restore();
    });
    ctx.strokeStyle = '#a0aec0'; ctx.strokeRect(L, T, pw, ph);
    // threshold lines carry their short label; the exact counts go in one line above the plot
    var legend = [];
    (o.thresholds || []).forEach(function (th, k) {
      var x = L + th.index * bw;
      ctx.save(); ctx.strokeStyle = '#c53030'; ctx.setLineDash([5, 3]); ctx.lineWidth = 1.3;
      ctx.beginPath(); ctx.moveTo(x, T); ctx.lineTo(x, T + ph); ctx.stroke(); ctx.restore();
      ctx.fillStyle = '#9b2c2c'; ctx.textAlign = 'left';
      ctx.fillText(th.short, x + 2, T + 11 + (k % 3) * 12);
      legend.push(th.label);
    });
    if (legend.length) { ctx.fillStyle = '#9b2c2c'; ctx.textAlign = 'left'; ctx.fillText('I/Os ' + legend.join(' · '), L, T - 10); }
  }

  function rgba(css) {
    var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(css);
    // ImageData is RGBA bytes; written as little-endian uint32 words (every browser the dashboard targets)
    return m ? (0xff000000 | (parseInt(m[3], 16) << 16) | (parseInt(m[2], 16) << 8) | parseInt(m[1], 16)) >>> 0 : 0xff000000;
  }

  /* Up to millions of points: axes with the 2D context, points written straight into the plot's pixels
   * (a path or fillRect per point would take seconds). I/Os below the threshold are one device pixel; those at or
   * above it a 3x3 square drawn last, so every outlier stays visible over the sampled cloud. */
  function scatter(canvas, o) {
    var c = setup(canvas), ctx = c.ctx, n = 0, lo = Infinity, hi = 0, k, i;
    o.chunks.forEach(function (ch) {
      n += ch.n;
      for (i = 0; i < ch.n; i++) { var v = ch.latencyNs[i]; if (v > 0) { if (v < lo) lo = v; if (v > hi) hi = v; } }
    });
    canvas.dataset.points = String(n);
    if (n === 0 || hi <= 0) { empty(c); return; }
    var L = 58, R = 12, T = 26, B = 34, pw = c.w - L - R, ph = c.h - T - B;
    var x0 = o.x0S, x1 = o.x1S > o.x0S ? o.x1S : o.x0S + 1;
    var ly0 = Math.floor(Math.log10(lo / 1e6)), ly1 = Math.ceil(Math.log10(hi / 1e6));
    if (o.thresholdNs > 0) { ly1 = Math.max(ly1, Math.ceil(Math.log10(o.thresholdNs / 1e6) + 1e-9)); }
    if (ly1 <= ly0) ly1 = ly0 + 1;
    function X(s) { return L + (s - x0) / (x1 - x0) * pw; }
    function Y(ms) { return T + ph - (Math.log10(ms) - ly0) / (ly1 - ly0) * ph; }
    ctx.strokeStyle = '#e2e8f0'; ctx.fillStyle = '#4a5568'; ctx.lineWidth = 1; ctx.textAlign = 'right';
    for (k = ly0; k <= ly1; k++) {
      var d = Math.pow(10, k);
      ctx.beginPath(); ctx.moveTo(L, Y(d)); ctx.lineTo(L + pw, Y(d)); ctx.stroke();
      ctx.fillText(fmt(d), L - 6, Y(d) + 4);
    }
    frame(c, o, X, x0, x1, L, T, pw, ph);
    // the points, in device pixels
    var ratio = canvas.width / c.w;
    var px0 = Math.ceil(L * ratio), py0 = Math.ceil(T * ratio);
    var pwd = Math.floor((L + pw) * ratio) - px0, phd = Math.floor((T + ph) * ratio) - py0;
    var img = ctx.getImageData(px0, py0, pwd, phd), words = new Uint32Array(img.data.buffer);
    var colors = o.colors.map(rgba);
    var ax = pw * ratio / (x1 - x0), bx = (L - x0 * pw / (x1 - x0)) * ratio - px0;
    var ay = -ph * ratio / (ly1 - ly0), by = (T + ph + ly0 * ph / (ly1 - ly0)) * ratio - py0;
    var thr = o.thresholdNs > 0 ? o.thresholdNs : Infinity, size = Math.max(3, Math.round(2 * ratio));
    for (var pass = 0; pass < 2; pass++) {
      o.chunks.forEach(function (ch) {
        var tn = ch.timeNs, ln = ch.latencyNs, op = ch.op;
        for (var j = 0; j < ch.n; j++) {
          var lat = ln[j];
          if (lat <= 0 || (lat >= thr) !== (pass === 1)) continue;
          var x = (ax * (tn[j] / 1e9) + bx) | 0, y = (ay * Math.log10(lat / 1e6) + by) | 0;
          if (pass === 0) {
            if (x >= 0 && x < pwd && y >= 0 && y < phd) words[y * pwd + x] = colors[op[j]];
          } else {
            for (var dy = -1; dy < size; dy++) {
              var yy = y + dy; if (yy < 0 || yy >= phd) continue;
              for (var dx = -1; dx < size; dx++) { var xx = x + dx; if (xx >= 0 && xx < pwd) words[yy * pwd + xx] = colors[op[j]]; }
            }
          }
        }
      });
    }
    ctx.putImageData(img, px0, py0);
    if (o.thresholdNs > 0) {
      var yt = Y(o.thresholdNs / 1e6);
      ctx.save(); ctx.setLineDash([5, 3]); ctx.strokeStyle = '#c53030'; ctx.lineWidth = 1.2;
      ctx.beginPath(); ctx.moveTo(L, yt); ctx.lineTo(L + pw, yt); ctx.stroke(); ctx.restore();
      ctx.fillStyle = '#9b2c2c'; ctx.textAlign = 'left'; ctx.fillText('≥ ' + fmt(o.thresholdNs / 1e6) + ' ms: every I/O', L + 4, yt - 4);
    }
    var lx = L + 4;
    ctx.textAlign = 'left';
    o.opNames.forEach(function (name, q) {
      if (!o.present || !o.present[q]) return;
      ctx.fillStyle = o.colors[q]; ctx.fillRect(lx, 6, 8, 8);
      ctx.fillStyle = '#2d3748'; ctx.fillText(name, lx + 12, 14);
      lx += 22 + ctx.measureText(name).width;
    });
  }

  window.Charts = { line: line, bars: bars, scatter: scatter, fmt: fmt };
})();
