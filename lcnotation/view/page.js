"use strict";
// The replay page's script.  It puts the pictures together (fill does what
// lcnotation.svg.fill does) and lets the reader move through them.  Python
// sends what each move changes of the picture, except for a game whose moves
// all follow the rules: such a game's moves are replayed here (replay does
// what lcnotation.svg.Replay does for such moves), from tables Python made
// (see lcnotation/view/__init__.py).  Everything it touches lies inside the
// page's root element, so that two pages (or a page inside a notebook) keep
// to themselves.
(function () {
  const script = document.currentScript;
  const roots = document.querySelectorAll(".lcnv");
  const root = (script && script.closest(".lcnv")) || roots[roots.length - 1];
  const part = (name) => root.querySelector('[data-lcnv="' + name + '"]');
  const data = JSON.parse(part("data").textContent);
  const AT = "@";
  const SCOPE = "\x01";

  function place(template, x, y) {
    return template.split(AT).join(x + "," + y);
  }

  // CRC-32 of a string's UTF-8 bytes, as Python's zlib.crc32.
  let crcTable = null;
  function crc32(text) {
    if (!crcTable) {
      crcTable = [];
      for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
        crcTable.push(c >>> 0);
      }
    }
    let crc = 0xFFFFFFFF;
    for (const byte of new TextEncoder().encode(text)) {
      crc = crcTable[(crc ^ byte) & 0xFF] ^ (crc >>> 8);
    }
    return ((crc ^ 0xFFFFFFFF) >>> 0).toString(16).padStart(8, "0");
  }

  function codesOf(layout, slots) {
    const codes = {};
    for (const slot of layout.slots) codes[slot[0]] = slots[slot[0]] ? slots[slot[0]].split(" ") : [];
    return codes;
  }

  // How far down each band lies: the longest expedition above it decides.
  function offsets(layout, codes) {
    const out = [0];
    for (const [names, step, room] of layout.grow) {
      let longest = 0;
      for (const name of names) longest = Math.max(longest, codes[name].length);
      out.push(out[out.length - 1] + Math.max(0, (longest - 1) * step - room));
    }
    return out;
  }

  function heightOf(layout, picture) {
    const off = offsets(layout, codesOf(layout, picture.slots));
    return layout.height + off[off.length - 1];
  }

  // The SVG of a picture ({slots: {name: "R3 R7"}, texts, marks}) in a layout.
  function fill(layout, picture) {
    const slots = picture.slots, texts = picture.texts;
    const codes = codesOf(layout, slots);
    const off = offsets(layout, codes);
    const width = layout.width, height = layout.height + off[off.length - 1];
    const dims = layout.size === null ? "" : ' width="' + layout.size + '" height="'
      + Math.floor((2 * layout.size * height + width) / (2 * width)) + '"';
    const scoped = layout.head.indexOf(SCOPE) >= 0;
    let out = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + width + " " + height
      + '"' + dims + layout.attrs + (scoped ? ' id="' + SCOPE + '"' : "") + ">"
      + layout.head + "<desc>";
    for (const p of layout.desc) {
      if (typeof p === "string") out += p;
      else if (p[0] === "slot") out += slots[p[1]] || "-";
      else if (p.length === 4) { if (texts[p[1]]) out += p[2] + texts[p[1]] + p[3]; }
      else out += texts[p[1]];
    }
    out += '</desc><rect width="' + width + '" height="' + height + '" fill="'
      + layout.background + '"/>';
    layout.frames.forEach((frame, band) => {
      if (frame) out += '<g transform="translate(0,' + off[band] + ')">' + frame + "</g>";
    });
    const where = {};
    for (const [name, x, y, dx, dy, band, covered] of layout.slots) {
      where[name] = [x, y + off[band], dx, dy, covered];
    }
    // The marks lie under the cards (see lcnotation.svg.fill).
    for (const [kind, name, i] of picture.marks) {
      const [x, y, dx, dy, covered] = where[name];
      const variants = layout.marks[kind];
      const variant = i >= codes[name].length - 1 ? "card" : covered;
      const template = variant in variants ? variants[variant] : variants.card;
      if (template) out += place(template, x + i * dx, y + i * dy);
    }
    for (const slot of layout.slots) {
      const name = slot[0];
      const [x, y, dx, dy, covered] = where[name];
      out += '<g data-slot="' + name + '">';
      const top = codes[name].length - 1;
      codes[name].forEach((code, i) => {
        if (i < top && covered === "hide") return;
        out += place(layout.cards[i === top ? "card" : covered][code], x + i * dx, y + i * dy);
      });
      out += "</g>";
    }
    for (let band = 0; band < layout.frames.length; band++) {
      let drawn = "";
      for (const [name, b, before, after] of layout.texts) {
        if (b === band && texts[name]) drawn += before + texts[name] + after;
      }
      if (drawn) out += '<g transform="translate(0,' + off[band] + ')">' + drawn + "</g>";
    }
    out += "</svg>";
    if (scoped) out = out.split(SCOPE).join("lcn" + crc32(out));
    return out;
  }

  // What each move of a game whose moves all follow the rules changes (see
  // game_data in lcnotation/view/__init__.py for its "play"), as Python sends
  // it for other games: [notation, words, slots, texts, marks].  The card
  // placed leaves the mover's hand for an expedition or a discard pile; the
  // card drawn joins the hand in its place (one not known, at the end); the
  // texts and the marks follow.
  function replay(game, tables) {
    const play = game.play;
    const colors = tables.colors, cards = tables.cards, back = tables.back;
    const sources = colors.length + 1;
    const order = {};
    cards.forEach((code, i) => { order[code] = i; });
    const slots = {};
    for (const name in game.start.slots) {
      slots[name] = game.start.slots[name] ? game.start.slots[name].split(" ") : [];
    }
    const texts = Object.assign({}, game.start.texts);
    const totals = [Number(texts.t0), Number(texts.t1)];
    const deck = play.deck === null ? null : play.deck.split(" ");
    let left = tables.counts.length - 1, drawn = 0, scored = 0;
    return play.moves.map((number, i) => {
      const p = i & 1;
      const source = number % sources;
      const card = (number - source) / sources >> 1;
      const discard = ((number - source) / sources & 1) === 1;
      const code = cards[card];
      const changedSlots = {}, changedTexts = {};
      const setSlot = (name) => { changedSlots[name] = slots[name].join(" "); };
      const setText = (name, value) => {
        if (texts[name] !== value) changedTexts[name] = texts[name] = value;
      };
      // The card drawn: the top of the draw pile (when the deal is known) or
      // of a discard pile.
      let pile = null, got;
      if (source === 0) {
        got = deck === null ? back : deck[drawn];
      } else {
        pile = slots["d" + colors[source - 1]];
        got = pile[pile.length - 1];
      }
      const words = play.players[p] + " " + (discard ? tables.discards : tables.plays)[card]
        + " " + (source === 0 ? tables.draws[got] : tables.takes[got]);
      const hand = slots["h" + p];
      const held = hand.indexOf(code);
      hand.splice(held >= 0 ? held : hand.indexOf(back), 1);
      if (got === back) {
        hand.push(back);
      } else {
        let at = 0;
        while (at < hand.length && hand[at] !== back && order[hand[at]] <= order[got]) at++;
        hand.splice(at, 0, got);
      }
      setSlot("h" + p);
      let placed;
      const c = code[0];
      if (discard) {
        const name = "d" + c;
        slots[name].push(code);
        setSlot(name);
        setText(name, tables.depths[slots[name].length]);
        placed = ["last", name, slots[name].length - 1];
      } else {
        const name = "e" + p + c;
        slots[name].push(code);
        setSlot(name);
        placed = ["last", name, slots[name].length - 1];
        const old = texts["s" + p + c], score = String(play.scores[scored++]);
        if (score !== old) {
          totals[p] += Number(score) - Number(old);
          setText("s" + p + c, score);
          setText("t" + p, String(totals[p]));
        }
      }
      let came;
      if (source === 0) {
        left--;
        drawn++;
        if (!left) {
          slots.draw = [];
          setSlot("draw");
        }
        setText("draw", tables.counts[left]);
        came = ["from", "draw", 0];
      } else {
        const name = "d" + colors[source - 1];
        pile.pop();
        setSlot(name);
        setText(name, tables.depths[pile.length]);
        came = ["from", name, pile.length];
      }
      setText("turn", play.turns[left ? 1 - p : 2]);
      const marks = left ? [["turn", "h" + (1 - p), 0], placed, came] : [placed, came];
      const written = i in play.written ? play.written[i] : tables.spelt[number];
      return [(i + 1) + ". " + written, words, changedSlots, changedTexts, marks];
    });
  }

  // Game g, ready to be shown (once): its start whole (it is sent as what
  // differs from the deal of its colours' tables) and its moves, each as
  // what it changes of the picture (sent so, or replayed from its play).
  function gameOf(g) {
    const game = data.games[g];
    if (!game.ready) {
      const tables = data.tables[game.layout], deal = tables.deal;
      game.start = {slots: Object.assign({}, deal.slots, game.start.slots),
                    texts: Object.assign({}, deal.texts, game.start.texts),
                    marks: game.start.marks || deal.marks};
      if (game.play) game.moves = replay(game, tables);
      game.ready = true;
    }
    return game;
  }

  function movesOf(g) {
    return gameOf(g).moves;
  }

  // The picture after the first k entries of game g.
  function pictureAt(g, k) {
    const game = gameOf(g);
    const moves = game.moves;
    const slots = Object.assign({}, game.start.slots);
    const texts = Object.assign({}, game.start.texts);
    let marks = game.start.marks;
    for (let i = 0; i < k; i++) {
      const move = moves[i];
      Object.assign(slots, move[2]);
      Object.assign(texts, move[3]);
      marks = move[4];
    }
    return {slots: slots, texts: texts, marks: marks};
  }

  // The layout of game g with player `bottom` (0 or 1) at the bottom.
  function layoutOf(g, bottom) {
    return data.layouts[data.games[g].layout][bottom];
  }

  function svgAt(g, k, bottom) {
    return fill(layoutOf(g, bottom || 0), pictureAt(g, k));
  }

  // What is shown: the game, the position and the SVG drawn for it; the
  // height of the game's tallest picture, which sets the board's scale (so
  // that the cards keep their size while the expeditions grow).
  const current = {game: 0, at: 0, bottom: 0, svg: "", tallest: 0, height: 0};
  let diagnosticsAt = [];
  let items = [];

  function tallest(g, bottom) {
    const layout = layoutOf(g, bottom);
    const game = gameOf(g);
    const slots = Object.assign({}, game.start.slots);
    let most = heightOf(layout, {slots: slots});
    for (const move of game.moves) {
      Object.assign(slots, move[2]);
      most = Math.max(most, heightOf(layout, {slots: slots}));
    }
    return most;
  }

  // The board as large as its place allows, at one scale for the whole game.
  function sizeBoard() {
    const board = part("board");
    const svg = board.firstElementChild;
    if (!svg || !data.games.length) return;
    const layout = layoutOf(current.game, current.bottom);
    const stacked = getComputedStyle(root).getPropertyValue("--lcnv-stacked").trim() === "1";
    const room = stacked ? window.innerHeight * 0.5 : board.clientHeight;
    const scale = Math.max(0.1, Math.min(board.clientWidth / layout.width,
                                         room / current.tallest));
    svg.style.width = layout.width * scale + "px";
    svg.style.height = current.height * scale + "px";
    board.style.height = stacked ? current.tallest * scale + "px" : "";
  }

  // The list scrolls itself (not the page) to keep the current move in sight.
  function keepInView(item, list) {
    const top = item.offsetTop - list.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    const left = item.offsetLeft - list.offsetLeft, right = left + item.offsetWidth;
    if (left < list.scrollLeft) list.scrollLeft = left;
    else if (right > list.scrollLeft + list.clientWidth) list.scrollLeft = right - list.clientWidth;
  }

  function go(k) {
    const moves = movesOf(current.game);
    k = Math.max(0, Math.min(moves.length, k));
    current.at = k;
    const layout = layoutOf(current.game, current.bottom);
    const picture = pictureAt(current.game, k);
    current.svg = fill(layout, picture);
    current.height = heightOf(layout, picture);
    part("board").innerHTML = current.svg;
    sizeBoard();
    part("where").textContent = (k === 0 ? "start" : k) + " / " + moves.length;
    part("score0").innerHTML = picture.texts.n0 + ": " + picture.texts.t0;
    part("score1").innerHTML = picture.texts.n1 + ": " + picture.texts.t1;
    part("notation").innerHTML = k ? moves[k - 1][0] : "";
    part("words").innerHTML = k ? moves[k - 1][1] : "the deal";
    const list = part("diagnostics");
    list.innerHTML = "";
    for (const [severity, text] of diagnosticsAt[k] || []) {
      const item = document.createElement("li");
      item.className = severity;
      item.innerHTML = text;
      list.appendChild(item);
    }
    items.forEach((button, i) => {
      if (i === k) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    if (items[k]) keepInView(items[k].parentElement, part("moves"));
  }

  // Only the chosen game's move list is built.
  function showGame(g) {
    current.game = g;
    const game = data.games[g];
    diagnosticsAt = [];
    for (const [at, severity, text] of game.diagnostics) {
      (diagnosticsAt[at] = diagnosticsAt[at] || []).push([severity, text]);
    }
    const list = part("moves");
    list.innerHTML = "";
    items = [];
    const entry = (k, html, unreadable) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.innerHTML = html;
      if (unreadable) {
        button.classList.add("lcnv-unreadable");
        button.insertAdjacentHTML("beforeend", '<span class="lcnv-hidden"> (unreadable)</span>');
        button.title = "could not be read";
      }
      if (diagnosticsAt[k]) button.classList.add("lcnv-diag");
      button.addEventListener("click", () => go(k));
      item.appendChild(button);
      list.appendChild(item);
      items.push(button);
    };
    entry(0, "start", false);
    movesOf(g).forEach((move, i) => entry(i + 1, move[0], move.length > 5));
    part("game").value = String(g);
    current.tallest = tallest(g, current.bottom);
    go(0);
  }

  const select = part("game");
  let longest = 0;
  data.games.forEach((game, g) => {
    const option = document.createElement("option");
    option.value = String(g);
    option.innerHTML = (g + 1) + ". " + game.title;
    longest = Math.max(longest, option.text.length);
    select.appendChild(option);
  });
  // The width the longest title wants, set rather than measured: measuring
  // the options of a record of thousands of games takes the browser longer
  // than the rest of the page.
  select.style.width = (Math.min(longest, 60) * 0.55 + 2).toFixed(1) + "em";
  select.addEventListener("change", () => {
    showGame(Number(select.value));
    select.blur();  // the arrow keys step through the moves again
  });
  part("first").addEventListener("click", () => go(0));
  part("prev").addEventListener("click", () => go(current.at - 1));
  part("next").addEventListener("click", () => go(current.at + 1));
  part("last").addEventListener("click", () => go(Infinity));
  const flip = () => {
    current.bottom = 1 - current.bottom;
    current.tallest = tallest(current.game, current.bottom);
    go(current.at);
  };
  part("flip").addEventListener("click", flip);
  // The keys work when the focus is in the page, or nowhere on a page of its own.
  const alone = root.parentElement === document.body;
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const mine = root.contains(target) || (alone && (target === document.body
                                                     || target === document.documentElement));
    if (!mine || !data.games.length || event.altKey || event.ctrlKey || event.metaKey
        || target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
    const step = {ArrowLeft: -1, ArrowRight: 1}[event.key];
    if (step) go(current.at + step);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(Infinity);
    else if (event.key === "f" || event.key === "F") flip();
    else return;
    event.preventDefault();
  });
  window.addEventListener("resize", sizeBoard);
  const api = {fill: fill, svgAt: svgAt, go: go, showGame: showGame, current: current,
               heightOf: heightOf, movesOf: movesOf};
  root.lcnView = api;
  window.lcnView = api;
  if (data.games.length) showGame(0);
  else part("board").textContent = "This record holds no games.";
})();
