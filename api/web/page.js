// envguard's page: paste an environment, see what is wrong on which line,
// for which machine. It calls the service's own /v1 endpoints; the state
// (the file and the machines) lives in the URL fragment, never on the server.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const env = $('env'), gutter = $('gutter'), backdrop = $('backdrop');
  const TOKEN_KEY = 'envguard.token';
  const ICON = { error: '✖', warning: '▲', info: 'i' };
  const RANK = { error: 3, warning: 2, info: 1 };
  const TYPE_DELAY = 400; // ms of quiet typing before checking
  const MAX_FILE = 8 << 20; // the server says no well below this; refuse to paste more
  const MAX_LINK = 64 << 10; // characters of file the link carries

  let fileName = ''; // the opened file's name, so the server reads it by its kind
  let wanted = []; // machines the link names, until the server's list is known
  let known = null; // the server's machine names
  let listed = false; // the server answered with its machines (none, perhaps)
  let marks = []; // findings drawn in the editor
  let seq = 0, inflight = null, timer = 0, tokenAsk = null;

  // el builds an element; text is always set as text, never parsed as HTML.
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const k of kids.flat()) if (k != null && k !== false) e.append(k);
    return e;
  }

  // fill replaces a node's children, leaving out the absent ones.
  function fill(node, ...kids) {
    node.replaceChildren(...kids.flat().filter((k) => k != null && k !== false));
  }

  function setStatus(node, msg, bad) {
    node.textContent = msg;
    node.classList.toggle('bad', !!bad);
  }

  // --- the token ------------------------------------------------------------

  function askToken(why) {
    if (tokenAsk) return tokenAsk;
    const dlg = $('token-dialog');
    $('token-why').textContent = why;
    $('token').value = '';
    tokenAsk = new Promise((resolve) => {
      dlg.addEventListener('close', () => {
        tokenAsk = null;
        const v = $('token').value.trim();
        if (dlg.returnValue === 'ok' && v) {
          sessionStorage.setItem(TOKEN_KEY, v);
          $('token-change').hidden = false;
          resolve(true);
        } else resolve(false);
      }, { once: true });
    });
    dlg.returnValue = '';
    dlg.showModal();
    return tokenAsk;
  }

  // api calls the service with the token, if one was given; a 401 asks for
  // it (once for all calls waiting) and tries again.
  async function api(path, opts = {}) {
    const headers = Object.assign({}, opts.headers);
    const tok = sessionStorage.getItem(TOKEN_KEY);
    if (tok) headers.Authorization = 'Bearer ' + tok;
    const res = await fetch(path, Object.assign({}, opts, { headers }));
    if (res.status !== 401) return res;
    const why = tok ? 'The server refused the token; type it again.' : 'This server asks for its bearer token (envguard serve --token-file).';
    if (await askToken(why)) return api(path, opts);
    const e = new Error('This server needs its bearer token; none was given. Reload the page to type it.');
    e.status = 401;
    throw e;
  }

  // failure turns an error answer ({"error": {...}}) into an Error.
  async function failure(res) {
    let msg = 'HTTP ' + res.status, line = 0;
    try {
      const j = await res.json();
      if (j && j.error) { msg = j.error.message || msg; line = j.error.line || 0; }
    } catch (_) { /* not JSON: keep the status */ }
    const e = new Error(msg);
    e.line = line;
    e.status = res.status;
    return e;
  }

  // --- the machines -----------------------------------------------------------

  function chosen() {
    return [...document.querySelectorAll('#targets input:checked')].map((i) => i.value);
  }

  async function loadTargets() {
    const box = $('targets');
    try {
      const [tr, gr] = await Promise.all([api('/v1/targets'), api('/v1/gpu')]);
      if (!tr.ok) throw await failure(tr);
      const names = (await tr.json()).targets || [];
      const gpu = gr.ok ? await gr.json() : {};
      // local is offered only where this server has a driver to read.
      known = names.filter((n) => n !== 'local' || gpu.available);
      listed = true;
    } catch (e) {
      known = [];
      box.replaceChildren(el('span', { class: 'sev-error', text: 'Could not list the machines: ' + e.message }));
      return;
    }
    const missing = wanted.filter((n) => !known.includes(n));
    fill(box,
      known.map((n) => el('label', {}, el('input', { type: 'checkbox', value: n, checked: wanted.includes(n) }), n)),
      known.length ? null : noMachines(),
      missing.length ? el('span', { class: 'sev-warning', text: 'Not on this server: ' + missing.join(', ') }) : null);
    const sel = $('b-target');
    sel.replaceChildren(el('option', { value: '', text: 'any' }), ...known.map((n) => el('option', { value: n, text: n })));
  }

  // noMachines says how to give a server its fleet: there is nothing to pick.
  function noMachines() {
    return el('p', { class: 'muted no-machines' }, 'This server knows no machines. Give it a fleet: ',
      el('code', { text: 'envguard serve --targets fleet.yml' }), ' (a targets file, as ', el('code', { text: 'validate --targets' }),
      ' reads it), or ', el('code', { text: 'targets:' }), ' in the ', el('code', { text: '.envguard.yml' }), ' it reads.');
  }

  // loadFrameworks offers in the build form what the server's builder builds.
  async function loadFrameworks() {
    const sel = $('b-framework'), st = $('build-status'), go = $('build-go');
    let fws = [];
    try {
      const res = await api('/v1/build');
      if (!res.ok) throw await failure(res);
      fws = (await res.json()).frameworks || [];
    } catch (e) {
      sel.replaceChildren();
      go.disabled = true;
      setStatus(st, 'Could not ask the server what it builds: ' + e.message, true);
      return;
    }
    sel.replaceChildren(...fws.map((f) => el('option', { value: f, text: f })));
    go.disabled = !fws.length;
    if (!fws.length) setStatus(st, 'This server builds no environments.');
  }

  // --- the link ---------------------------------------------------------------

  function saveFragment() {
    const p = new URLSearchParams();
    for (const t of known ? chosen() : wanted) p.append('target', t);
    // Browsers cut very long addresses; a big lock file stays out of the
    // link, and the page says so.
    const big = env.value.length > MAX_LINK;
    $('link-note').hidden = !big;
    if (env.value && !big) p.set('env', env.value);
    const h = p.toString();
    if (h !== location.hash.slice(1)) history.replaceState(null, '', h ? '#' + h : location.pathname);
  }

  function loadFragment() {
    const p = new URLSearchParams(location.hash.slice(1));
    env.value = p.get('env') || '';
    wanted = p.getAll('target');
    if (known) for (const i of document.querySelectorAll('#targets input')) i.checked = wanted.includes(i.value);
  }

  // --- the editor -------------------------------------------------------------

  function worst(fs) {
    return fs.reduce((a, f) => (RANK[f.severity] > RANK[a] ? f.severity : a), 'info');
  }

  // paint redraws the gutter and the underlines for the text as it is now.
  function paint() {
    const lines = env.value.split('\n');
    const byLine = new Map();
    for (const f of marks) {
      if (f.line > 0 && f.line <= lines.length) {
        if (!byLine.has(f.line)) byLine.set(f.line, []);
        byLine.get(f.line).push(f);
      }
    }
    gutter.replaceChildren(...lines.map((_, i) => {
      const fs = byLine.get(i + 1);
      if (!fs) return el('div', { class: 'ln', 'data-line': i + 1 }, String(i + 1));
      const s = worst(fs);
      return el('div', {
        class: 'ln sev-' + s, 'data-line': i + 1, 'data-codes': fs.map((f) => f.code).join(' '),
        title: fs.map((f) => f.code + ' ' + f.severity + ': ' + f.message).join('\n'),
      }, el('span', { class: 'mark', text: ICON[s] }), String(i + 1));
    }));
    backdrop.replaceChildren(...lines.map((text, i) => {
      const fs = byLine.get(i + 1);
      if (!fs) return el('div', { class: 'bl' }, text || '\u200b');
      return el('div', { class: 'bl sev-' + worst(fs), 'data-line': i + 1 }, ...underline(text, fs));
    }));
    syncScroll();
  }

  // underline splits a line into plain text and the findings' spans
  // (columns are 1-based, end exclusive; no end means to the line's end).
  function underline(text, fs) {
    const chars = Array.from(text);
    const sev = new Array(chars.length).fill('');
    for (const f of fs) {
      let from = Math.max(0, (f.column || 1) - 1);
      let to = f.end_column > f.column ? f.end_column - 1 : chars.length;
      if (!f.column) { from = chars.length - chars.join('').trimStart().length; }
      for (let c = from; c < Math.min(to, chars.length); c++) {
        if (!sev[c] || RANK[f.severity] > RANK[sev[c]]) sev[c] = f.severity;
      }
    }
    const out = [];
    for (let c = 0; c < chars.length;) {
      let d = c;
      while (d < chars.length && sev[d] === sev[c]) d++;
      const part = chars.slice(c, d).join('');
      out.push(sev[c] ? el('span', { class: 'u sev-' + sev[c] }, part) : part);
      c = d;
    }
    if (!out.length) out.push('\u200b');
    return out;
  }

  function syncScroll() {
    backdrop.scrollTop = env.scrollTop;
    backdrop.scrollLeft = env.scrollLeft;
    gutter.scrollTop = env.scrollTop;
  }

  // goto puts the caret at the start of a line and scrolls it into view.
  function goto(line) {
    const lines = env.value.split('\n');
    let off = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) off += lines[i].length + 1;
    env.focus();
    env.setSelectionRange(off, off);
    const lh = parseFloat(getComputedStyle(env).lineHeight) || 20;
    env.scrollTop = Math.max(0, (line - 1) * lh - env.clientHeight / 3);
    syncScroll();
    const row = backdrop.querySelector('.bl[data-line="' + line + '"]');
    if (row) { row.classList.add('flash'); setTimeout(() => row.classList.remove('flash'), 1200); }
  }

  // --- validation ---------------------------------------------------------------

  async function validate() {
    clearTimeout(timer);
    saveFragment();
    if (inflight) inflight.abort();
    const text = env.value;
    if (!text.trim()) {
      seq++;
      fileName = '';
      $('fname').textContent = '';
      show(null);
      setStatus($('status'), 'Paste an environment file, or open one.');
      return;
    }
    const my = ++seq;
    const ctl = new AbortController();
    inflight = ctl;
    const q = new URLSearchParams();
    for (const t of chosen()) q.append('target', t);
    if (fileName) q.set('file', fileName);
    setStatus($('status'), 'Checking…');
    try {
      const res = await api('/v1/validate?' + q, {
        method: 'POST', body: text, signal: ctl.signal,
        headers: { 'Content-Type': 'application/yaml' },
      });
      if (!res.ok) throw await failure(res);
      const rep = await res.json();
      if (my !== seq) return;
      show(rep);
      setStatus($('status'), summary(rep), rep.summary && rep.summary.errors > 0);
    } catch (e) {
      if (e.name === 'AbortError' || my !== seq) return;
      show(null, e);
      setStatus($('status'), (e.line ? 'Line ' + e.line + ': ' : '') + e.message, true);
    } finally {
      if (inflight === ctl) inflight = null;
    }
  }

  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  function summary(rep) {
    const s = rep.summary || {};
    let t = plural(s.errors || 0, 'error', 'errors') + ', ' + plural(s.warnings || 0, 'warning', 'warnings') +
      ', ' + (s.info || 0) + ' info';
    if (s.targets) t += '; machines: ' + s.targets.ok + ' ok, ' + s.targets.fail + ' fail, ' + s.targets.unknown + ' unknown';
    return t + '.';
  }

  // show draws a report, or an error that stopped the file being judged.
  function show(rep, err) {
    marks = rep ? rep.findings || [] : err && err.line ? [{ line: err.line, severity: 'error', code: 'error', message: err.message }] : [];
    paint();
    showName(rep);
    showFindings(rep);
    showVerdicts(rep);
    showStack(rep);
  }

  function showName(rep) {
    const box = $('name');
    if (!rep) { box.replaceChildren(el('p', { class: 'muted', text: 'No result yet.' })); return; }
    const n = rep.name || {};
    fill(box,
      n.canonical ? el('p', {}, el('span', { class: 'canonical', id: 'canonical', text: n.canonical }),
        n.declared && n.declared !== n.canonical ? el('span', { class: 'muted', text: '  (declared: ' + n.declared + ')' }) : null)
        : el('p', { class: 'muted', text: 'No canonical name' + (n.reason ? ': ' + n.reason : '.') }));
  }

  function ruleLink(code) {
    return el('a', { class: 'code', href: '/rules/' + encodeURIComponent(code), text: code, title: 'What ' + code + ' means and how to fix it' });
  }

  function lineButton(line, col, label) {
    return el('button', { type: 'button', class: 'goto', 'data-goto': line, 'aria-label': 'Go to line ' + line },
      label || 'line ' + line + (col ? ':' + col : ''));
  }

  function showFindings(rep) {
    const list = $('findings');
    const fs = rep ? rep.findings || [] : [];
    $('counts').textContent = rep ? '(' + fs.length + ')' : '';
    if (rep && !fs.length) { list.replaceChildren(el('li', { class: 'muted', text: 'None: nothing wrong was found.' })); return; }
    list.replaceChildren(...fs.map((f) => el('li', { class: 'finding sev-' + f.severity, 'data-code': f.code, 'data-line': f.line || null },
      el('div', { class: 'fhead' },
        el('span', { class: 'sev sev-' + f.severity, text: f.severity }),
        ruleLink(f.code),
        f.line ? lineButton(f.line, f.column) : null,
        ...(f.related || []).map((r) => lineButton(r.line, r.column, 'also line ' + r.line)),
        f.target ? el('span', { class: 'muted', text: 'on ' + f.target }) : null),
      el('p', { class: 'msg', text: f.message }),
      f.hint ? el('p', { class: 'hint', text: 'Hint: ' + f.hint }) : null)));
  }

  function hostLine(t) {
    const parts = [];
    if (t.driver) parts.push('driver ' + t.driver + (t.cuda_driver ? ' (CUDA ' + t.cuda_driver + ')' : ''));
    else if (t.cuda_driver) parts.push('CUDA driver ' + t.cuda_driver);
    if (t.driver_range) parts.push('drivers ' + t.driver_range);
    const groups = new Map();
    for (const g of t.gpus || []) {
      const k = (g.name || 'GPU') + ' (sm ' + g.compute_capability + ')';
      groups.set(k, (groups.get(k) || 0) + 1);
    }
    for (const [k, n] of groups) parts.push((n > 1 ? n + ' × ' : '') + k);
    if (!t.available && t.reason) parts.push(t.reason);
    return parts.join(' · ');
  }

  function showVerdicts(rep) {
    const box = $('verdicts');
    const ts = rep ? rep.targets || [] : [];
    if (!ts.length) {
      if (listed && !known.length) box.replaceChildren(el('p', { class: 'muted', text: 'No machine to hold it against: this server knows none (how to give it a fleet is above).' }));
      else box.replaceChildren(el('p', { class: 'muted', text: rep ? 'Pick a machine above to see whether this environment runs on it.' : 'No result yet.' }));
      return;
    }
    box.replaceChildren(el('ul', { class: 'verdicts' }, ...ts.map((t) => {
      const reasons = (rep.findings || []).filter((f) => f.target === t.name).map((f) =>
        el('li', {}, ruleLink(f.code), ' ', f.message));
      const said = new Set((rep.findings || []).filter((f) => f.target === t.name).map((f) => f.message));
      for (const u of t.undecided || []) if (![...said].some((m) => m.includes(u.why))) reasons.push(el('li', { text: u.why }));
      for (const n of t.notes || []) reasons.push(el('li', { class: 'muted', text: n }));
      if (!reasons.length && t.verdict === 'ok') reasons.push(el('li', { text: 'Every check was decided and none failed.' }));
      return el('li', { class: 'verdict v-' + t.verdict, 'data-target': t.name, 'data-verdict': t.verdict },
        el('span', { class: 'vname', text: t.name }), el('span', { class: 'badge', text: t.verdict }),
        el('div', { class: 'host', text: hostLine(t) }),
        el('ul', {}, reasons));
    })));
  }

  function showStack(rep) {
    const box = $('stack');
    const s = rep && rep.stack;
    if (!s) { box.replaceChildren(el('p', { class: 'muted', text: rep ? 'Nothing could be resolved.' : 'No result yet.' })); return; }
    const rows = [];
    const row = (k, ...v) => rows.push(el('dt', { text: k }), el('dd', {}, ...v));
    const fw = s.framework;
    if (fw) {
      const bits = [fw.variant, fw.from && 'from ' + fw.from, fw.channel && 'channel ' + fw.channel, fw.build && 'build ' + fw.build].filter(Boolean);
      row('Framework', el('code', { text: fw.name + ' ' + (fw.version || fw.spec || '(any version)') }), bits.length ? ' (' + bits.join(', ') + ')' : '');
    } else row('Framework', el('span', { class: 'muted', text: 'none found' }));
    if (s.cuda) {
      row('CUDA runtime', el('code', { text: s.cuda.version }), el('ul', { class: 'evidence' }, ...(s.cuda.evidence || []).map((ev) =>
        el('li', {}, ev.line ? lineButton(ev.line, 0) : null, ' ', el('code', { text: ev.item }), ev.says ? ' says ' + ev.says : ''))));
    } else row('CUDA runtime', el('span', { class: 'muted', text: s.cpu_evidence ? 'none (CPU build)' : 'not decided' }));
    if (s.cudnn) row('cuDNN', el('code', { text: s.cudnn }));
    row('Python', s.python ? el('code', { text: s.python }) : el('span', { class: 'muted', text: 'not pinned' }));
    const libs = [...(s.gpu_libs || []), ...(s.companions || [])];
    const parts = [el('dl', { class: 'stack' }, rows)];
    if (libs.length) {
      parts.push(el('table', {},
        el('caption', { class: 'muted small', text: 'Where each GPU library comes from' }),
        el('thead', {}, el('tr', {}, ['package', 'version', 'from', 'channel', 'CUDA'].map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, libs.map((p) => el('tr', {},
          el('td', {}, el('code', { text: p.name })), el('td', { text: p.version || p.spec || '' }),
          el('td', { text: p.from || '' }), el('td', { text: p.channel || '' }),
          el('td', { text: p.cuda_major ? String(p.cuda_major) : '' }))))));
    }
    box.replaceChildren(...parts);
  }

  // --- files ------------------------------------------------------------------------

  async function openFile(f) {
    if (!f) return;
    if (f.size > MAX_FILE) {
      setStatus($('status'), f.name + ' is ' + f.size + ' bytes; the page takes files up to ' + MAX_FILE + ' bytes.', true);
      return;
    }
    env.value = await f.text();
    fileName = f.name;
    $('fname').textContent = '(' + f.name + ')';
    validate();
  }

  // --- fixing --------------------------------------------------------------------------

  // fix asks POST /v1/fix for the file with envguard's certain fixes made,
  // and shows the diff and the fixed file; nothing changes in the editor
  // until "Use the fixed file".
  async function fix() {
    const st = $('fix-status');
    const text = env.value;
    $('fix-out').hidden = true;
    if (!text.trim()) { setStatus(st, 'Paste an environment file first.', true); return; }
    const q = new URLSearchParams();
    if (fileName) q.set('file', fileName);
    if ($('fix-unsafe').checked) q.set('unsafe', '1');
    setStatus(st, 'Fixing…');
    try {
      const res = await api('/v1/fix?' + q, { method: 'POST', body: text, headers: { 'Content-Type': 'application/yaml' } });
      if (!res.ok) throw await failure(res);
      const r = await res.json();
      fill($('fix-diff'), r.diff ? r.diff.replace(/\n$/, '').split('\n').map((l) =>
        el('span', { class: l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : null }, l + '\n')) : 'Nothing to change.');
      $('fix-fixed').textContent = r.fixed;
      fill($('fix-skipped'), r.skipped.map((s) => el('li', {}, ruleLink(s.code), ' line ' + s.line + ' not fixed: ' + s.reason)));
      $('fix-out').hidden = false;
      $('fix-use').disabled = !r.diff;
      const codes = [...new Set(r.applied.map((a) => a.code))].join(', ');
      setStatus(st, (r.applied.length ? plural(r.applied.length, 'fix', 'fixes') + ' (' + codes + ')' : 'No fix applies') +
        '; ' + (r.remaining ? plural(r.remaining, 'finding', 'findings') + ' at error or warning left.' : 'nothing left at error or warning.'), r.remaining > 0);
    } catch (e) {
      setStatus(st, (e.line ? 'Line ' + e.line + ': ' : '') + e.message, true);
    }
  }

  // --- building -----------------------------------------------------------------------

  async function build(ev) {
    ev.preventDefault();
    const st = $('build-status');
    const req = { framework: $('b-framework').value };
    for (const k of ['version', 'python', 'cuda', 'via']) { const v = $('b-' + k).value.trim(); if (v) req[k] = v; }
    if ($('b-target').value) req.targets = [$('b-target').value];
    setStatus(st, 'Building…');
    $('build-out').hidden = true;
    try {
      const res = await api('/v1/build', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req) });
      if (!res.ok) throw await failure(res);
      $('built').textContent = await res.text();
      $('build-out').hidden = false;
      setStatus(st, 'Built; it passes envguard\'s own checks' + (req.targets ? ' for ' + req.targets[0] : '') + '.');
    } catch (e) {
      setStatus(st, e.message, true);
    }
  }

  async function copyBuilt() {
    const st = $('build-status');
    try {
      await navigator.clipboard.writeText($('built').textContent);
      setStatus(st, 'Copied.');
    } catch (_) {
      // No clipboard outside a secure context: select it for Ctrl+C.
      getSelection().selectAllChildren($('built'));
      setStatus(st, 'Selected: press Ctrl+C to copy.');
    }
  }

  // --- wiring --------------------------------------------------------------------------

  env.addEventListener('input', () => {
    paint();
    saveFragment();
    clearTimeout(timer);
    if ($('live').checked) timer = setTimeout(validate, TYPE_DELAY);
  });
  env.addEventListener('scroll', syncScroll);
  env.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); validate(); }
  });
  $('validate').addEventListener('click', validate);
  $('targets').addEventListener('change', () => { saveFragment(); if (env.value.trim()) validate(); });
  $('file').addEventListener('change', (e) => openFile(e.target.files[0]));
  const editor = $('editor');
  editor.addEventListener('dragover', (e) => { e.preventDefault(); editor.classList.add('drop'); });
  editor.addEventListener('dragleave', () => editor.classList.remove('drop'));
  editor.addEventListener('drop', (e) => {
    e.preventDefault();
    editor.classList.remove('drop');
    openFile(e.dataTransfer.files[0]);
  });
  document.addEventListener('click', (e) => {
    const b = e.target.closest('[data-goto]');
    if (b) goto(Number(b.dataset.goto));
  });
  gutter.addEventListener('click', (e) => {
    const ln = e.target.closest('.ln[data-codes]');
    const li = ln && document.querySelector('#findings li[data-line="' + ln.dataset.line + '"] button.goto');
    if (li) li.focus();
  });
  $('fix').addEventListener('click', fix);
  $('fix-use').addEventListener('click', () => {
    env.value = $('fix-fixed').textContent;
    $('fix-out').hidden = true;
    setStatus($('fix-status'), 'The fixed file is in the editor.');
    paint();
    validate();
    env.focus();
  });
  $('fix-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('fix-fixed').textContent);
      setStatus($('fix-status'), 'Copied.');
    } catch (_) {
      getSelection().selectAllChildren($('fix-fixed'));
      setStatus($('fix-status'), 'Selected: press Ctrl+C to copy.');
    }
  });
  $('build-form').addEventListener('submit', build);
  $('copy-built').addEventListener('click', copyBuilt);
  $('use-built').addEventListener('click', () => {
    env.value = $('built').textContent;
    fileName = '';
    $('fname').textContent = '';
    validate();
    env.focus();
  });
  $('token-change').hidden = !sessionStorage.getItem(TOKEN_KEY);
  $('token-change').addEventListener('click', async () => {
    if (await askToken('Type the bearer token of this server.')) { loadTargets().then(validate); }
  });
  // A link pasted into this tab's address bar (replaceState fires no event).
  window.addEventListener('hashchange', () => { loadFragment(); validate(); });

  loadFragment();
  paint();
  loadFrameworks();
  loadTargets().then(() => {
    if (listed && !known.length) showVerdicts(null);
    if (env.value.trim()) validate();
    else setStatus($('status'), 'Paste an environment file, or open one.');
  });
})();
