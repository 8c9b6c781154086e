// lexq's static site: look-ups, completions and the word-game lists
// (anagrams of a rack, hooks, words by pattern within a length) from the
// index shards under /idx/, fetched on demand, with no server:
//   /idx/meta.json       counts by length; completions of each first letter
//   /idx/p/{xy}.json     the words beginning with xy (first two letters),
//                        and the base forms of those that are inflections
//   /idx/len/{n}.json    the words of n letters
// Word pages and browse pages need none of this: it improves them
// (completions in the search box) and runs the search and list pages.
"use strict";
(function () {
  const chars = (s) => Array.from(s);
  const len = (s) => chars(s).length;
  const upper = (s) => s.toUpperCase();
  const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "");
  const ONLY_LETTERS = /^\p{L}+$/u;

  // The edit distance of a and b, an adjacent swap counting 1, or
  // max + 1 when it is over max.
  function distance(a, b, max) {
    const x = chars(a), y = chars(b);
    if (Math.abs(x.length - y.length) > max) return max + 1;
    const d = [];
    for (let i = 0; i <= x.length; i++) d.push([i]);
    for (let j = 1; j <= y.length; j++) d[0][j] = j;
    for (let i = 1; i <= x.length; i++) {
      let best = max + 1;
      for (let j = 1; j <= y.length; j++) {
        let v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, d[i - 2][j - 2] + 1);
        d[i][j] = v;
        best = Math.min(best, v);
      }
      if (best > max) return max + 1;
    }
    return d[x.length][y.length];
  }

  // A pattern (? one letter, * any letters, [AEI] one of, [^AEI] none
  // of) as a regular expression, and how many letters it fixes.
  function compile(pattern) {
    const p = chars(upper(pattern.trim()));
    if (!p.length) throw new Error("type a pattern: C?R[AEI]*");
    let src = "^", fixed = 0, stars = 0;
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (c === "?") { src += "."; fixed++; }
      else if (c === "*") { src += ".*"; stars++; }
      else if (c === "[") {
        let j = i + 1, negate = false, set = "";
        if (p[j] === "^") { negate = true; j++; }
        while (j < p.length && p[j] !== "]") {
          if (!ONLY_LETTERS.test(p[j])) throw new Error(`${p[j]} in brackets: only letters go there`);
          set += p[j++];
        }
        if (j >= p.length) throw new Error("a [ without its ]");
        if (!set) throw new Error("empty brackets []");
        src += (negate ? "[^" : "[") + set + "]";
        fixed++;
        i = j;
      } else if (ONLY_LETTERS.test(c)) { src += c; fixed++; }
      else throw new Error(`${c} is not a letter, ?, * or [...]`);
    }
    return { re: new RegExp(src + "$", "u"), fixed, stars, literal: p.length >= 2 && p.slice(0, 2).every((c) => ONLY_LETTERS.test(c)) ? p.slice(0, 2).join("") : null };
  }

  // The index, read through load(path) (a promise of the parsed JSON
  // file under /idx/, or null when there is none).
  function Index(load) {
    const cache = new Map();
    const get = (path) => {
      if (!cache.has(path)) cache.set(path, load(path));
      return cache.get(path);
    };
    const meta = () => get("meta.json").then((m) => {
      if (!m) throw new Error("this copy has no index (/idx/meta.json)");
      return m;
    });
    const shardName = (w) => chars(w.toLowerCase()).slice(0, 2).join("");
    async function shard(name) {
      const s = (await get("p/" + encodeURIComponent(name) + ".json")) || { words: [], bases: {} };
      if (!s.set) s.set = new Set(s.words);
      return s;
    }
    async function ofLength(n) {
      const m = await meta();
      if (!m.lengths[n]) return [];
      return (await get("len/" + n + ".json")) || [];
    }
    async function isWord(w) {
      const W = upper(w);
      return W !== "" && (await shard(shardName(W))).set.has(W);
    }
    // The words of the lexicon nearest w (2 edits for 8 letters or
    // fewer, else 1), nearest first, then in the word list's order.
    async function near(w, limit) {
      const W = upper(w), n = len(W);
      if (!n || !ONLY_LETTERS.test(W)) return [];
      const max = n > 8 ? 1 : 2;
      const found = [];
      for (let l = Math.max(1, n - max); l <= n + max; l++) {
        for (const x of await ofLength(l)) {
          const d = distance(W, x, max);
          if (d <= max && x !== W) found.push([d, found.length, x]);
        }
      }
      found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      return found.slice(0, limit).map((f) => f[2]);
    }
    return {
      meta, isWord, near,
      // What the search box does with text: one word of the lexicon (as
      // typed, or unaccented) is found; else the nearest words.
      async lookup(text) {
        const words = String(text).match(/\p{L}+/gu) || [];
        if (words.length !== 1) return { words, found: null, near: [] };
        const w = upper(words[0]);
        for (const c of [w, upper(fold(w))]) {
          if (await isWord(c)) return { words, found: c, near: [] };
        }
        return { words, found: null, near: await near(upper(fold(w)), 5) };
      },
      // Completions: the word itself, the base forms it is an inflection
      // of, the words it begins that the site knows a frequency of, most
      // common first, then the others, shortest first (as the server's
      // /api/v1/complete).
      async complete(text, limit) {
        const p = upper(String(text).trim());
        if (!p || !ONLY_LETTERS.test(p)) return [];
        if (len(p) === 1) return ((await meta()).first[p.toLowerCase()] || []).slice(0, limit);
        const s = await shard(shardName(p));
        const out = [];
        if (s.set.has(p)) {
          out.push(p);
          for (const b of s.bases[p] || []) if (!out.includes(b)) out.push(b);
        }
        const common = (s.common || []).filter((w) => w.startsWith(p) && w !== p);
        const rest = s.words.filter((w) => w.startsWith(p) && len(w) > len(p));
        rest.sort((a, b) => len(a) - len(b));
        for (const w of common.concat(rest)) {
          if (out.length >= limit) break;
          if (!out.includes(w)) out.push(w);
        }
        return out.slice(0, limit);
      },
      // The words of exactly the rack's letters; ? is a blank.
      async anagrams(rack) {
        const r = upper(String(rack).trim());
        if (!r || !/^[\p{L}?]+$/u.test(r)) throw new Error("type letters, ? for a blank: RETAINS, QUIZ??");
        const counts = new Map();
        let blanks = 0;
        for (const c of chars(r)) {
          if (c === "?") blanks++;
          else counts.set(c, (counts.get(c) || 0) + 1);
        }
        return (await ofLength(len(r))).filter((w) => {
          const left = new Map(counts);
          let b = blanks;
          for (const c of chars(w)) {
            const k = left.get(c) || 0;
            if (k > 0) left.set(c, k - 1);
            else if (b > 0) b--;
            else return false;
          }
          return true;
        });
      },
      // The letters that make a word before and after the letters.
      async hooks(word) {
        const w = upper(String(word).trim());
        if (!w || !ONLY_LETTERS.test(w)) throw new Error("type a word's letters: CARE");
        const front = [], back = [];
        for (const x of await ofLength(len(w) + 1)) {
          const c = chars(x);
          if (c.slice(1).join("") === w) front.push(c[0]);
          if (x.startsWith(w)) back.push(c[c.length - 1]);
        }
        return { word: w, is_word: await isWord(w), front, back };
      },
      // The words matching a pattern, of min to max letters (either
      // null: no bound), by length, then in the word list's order.
      async pattern(text, min, max) {
        const p = compile(String(text));
        const m = await meta();
        let lo = Math.max(p.fixed, min || 1, 1);
        let hi = p.stars ? Math.min(max || m.max_length, m.max_length) : Math.min(p.fixed, max || p.fixed);
        const out = [];
        if (p.literal) {
          for (const w of (await shard(p.literal.toLowerCase())).words) {
            const n = len(w);
            if (n >= lo && n <= hi && p.re.test(w)) out.push(w);
          }
          out.sort((a, b) => len(a) - len(b));
          return out;
        }
        for (let n = lo; n <= hi; n++) {
          for (const w of await ofLength(n)) if (p.re.test(w)) out.push(w);
        }
        return out;
      },
    };
  }

  // The index as a browser (or a test) reads it over HTTP from `base`.
  function httpLoader(base) {
    return (path) => fetch(base + "/idx/" + path).then((r) => {
      if (r.status === 404) return null;
      if (!r.ok) throw new Error(`the index answered ${r.status} for ${path}`);
      return r.json();
    });
  }

  const api = { Index, httpLoader, distance, compile };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  if (typeof document === "undefined") return;

  // ---- The pages ----
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c]));
  const href = (w) => "/word/" + encodeURIComponent(w.toLowerCase()) + "/";
  const link = (w) => `<a href="${href(w)}">${esc(w)}</a>`;
  const idx = Index(httpLoader(""));
  const input = $("q");

  // Completions as the visitor types, in every page's search box.
  if (input) {
    const list = document.createElement("datalist");
    list.id = "lexq-completions";
    input.after(list);
    input.setAttribute("list", list.id);
    input.setAttribute("autocomplete", "off");
    let timer = null;
    input.addEventListener("input", () => {
      clearTimeout(timer);
      const q = input.value.trim();
      if (!q || /\s/.test(q)) { list.replaceChildren(); return; }
      timer = setTimeout(() => {
        idx.complete(q, 8).then((words) => {
          if (input.value.trim() !== q) return;
          list.replaceChildren(...words.map((w) => { const o = document.createElement("option"); o.value = w.toLowerCase(); return o; }));
        }).catch(() => list.replaceChildren());
      }, 100);
    });
  }

  // The search page (/search/?q=): a word goes to its page.
  const lookup = $("lookup");
  if (lookup) {
    const q = new URLSearchParams(location.search).get("q") || "";
    if (input) input.value = q;
    const say = (html) => { lookup.innerHTML = html; };
    if (!q.trim()) say(`<p class="status">Type a word in the box above.</p>`);
    else idx.lookup(q).then((r) => {
      if (r.found) { location.replace(href(r.found)); return; }
      document.title = `${q} · lexq`;
      let html = r.words.length === 1
        ? `<h1 id="lookup-title">${esc(upper(r.words[0]))}</h1><p class="badge no" id="validity">Not in the word list</p>`
        : `<h1 id="lookup-title">${esc(q)}</h1>`;
      if (r.near.length) {
        html += `<p class="status" id="did-you-mean">Did you mean ${r.near.map((w) => `<a href="${href(w)}"><strong>${esc(w)}</strong></a>`).join(", ")}?</p>`;
      }
      html += `<p class="status" id="needs-server">Searching the definitions needs the lexq server (<code>lexq serve</code>); this static copy looks words up by their spelling only. <a href="/browse/">Browse the words</a>.</p>`;
      say(html);
    }).catch((e) => say(`<p class="error" role="alert">${esc(e.message)}</p>`));
  }

  // The word-game lists on the home page (/?mode=&q=&length=).
  const form = $("list-form");
  if (form) {
    const out = $("list-results");
    const HINTS = {
      anagram: "All the letters, rearranged; <code>?</code> is a blank: <code>RETAINS</code>, <code>QUIZ??</code>",
      hooks: "The letters that go before or after a word: <code>CARE</code>",
      pattern: "<code>?</code> one letter, <code>*</code> any letters, <code>[AEI]</code> one of, <code>[^AEI]</code> none of; pick a length or not: <code>C?R[^AEIOU]*</code>",
    };
    const mode = () => form.querySelector("input[name=mode]:checked").value;
    const hint = () => { $("list-hint").innerHTML = HINTS[mode()]; };
    const words = (list, id) => list.length
      ? `<ul class="words" id="${id}">${list.slice(0, 2000).map((w) => `<li>${link(w)}</li>`).join("")}</ul>`
        + (list.length > 2000 ? `<p class="status">and ${(list.length - 2000).toLocaleString()} more: narrow the search.</p>` : "")
      : `<p class="none" id="${id}">None</p>`;
    async function run(m, q, length) {
      const n = parseInt(length, 10) || null;
      out.innerHTML = `<p class="status">Looking…</p>`;
      if (m === "hooks") {
        const h = await idx.hooks(q);
        out.innerHTML = `<p class="status" id="list-summary"><strong>${h.front.length + h.back.length}</strong> hooks of <strong>${esc(h.word)}</strong>${h.is_word ? "" : " (not itself a word)"}</p>`
          + `<div class="hooks" id="hook-line"><span>${h.front.map((l) => `<a href="${href(l + h.word)}" title="${esc(l + h.word)}">${esc(l)}</a>`).join("") || "·"}</span>`
          + `<span class="base">${esc(h.word)}</span><span>${h.back.map((l) => `<a href="${href(h.word + l)}" title="${esc(h.word + l)}">${esc(l)}</a>`).join("") || "·"}</span></div>`;
        return;
      }
      const list = m === "anagram" ? await idx.anagrams(q) : await idx.pattern(q, n, n);
      const what = m === "anagram" ? "anagrams of" : "matching";
      out.innerHTML = `<p class="status" id="list-summary"><strong>${list.length.toLocaleString()}</strong> word${list.length === 1 ? "" : "s"} ${what} <strong>${esc(upper(q))}</strong>${m === "pattern" && n ? ` of ${n} letters` : ""}</p>` + words(list, "list-words");
    }
    const go = (m, q, length) => run(m, q, length).catch((e) => { out.innerHTML = `<p class="error" role="alert">${esc(e.message)}</p>`; });
    form.addEventListener("change", hint);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const q = $("letters").value.trim();
      if (!q) { $("letters").focus(); return; }
      const length = $("length").value;
      history.pushState(null, "", `/?mode=${mode()}&q=${encodeURIComponent(q)}${length ? "&length=" + length : ""}`);
      go(mode(), q, length);
    });
    const fromUrl = () => {
      const params = new URLSearchParams(location.search);
      const m = HINTS[params.get("mode")] ? params.get("mode") : "anagram";
      form.querySelector(`input[name=mode][value=${m}]`).checked = true;
      $("letters").value = params.get("q") || "";
      $("length").value = params.get("length") || "";
      hint();
      if ($("letters").value) go(m, $("letters").value, $("length").value);
      else out.innerHTML = "";
    };
    window.addEventListener("popstate", fromUrl);
    fromUrl();
  }
})();
