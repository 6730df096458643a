"use strict";
// The replay page's script.  Python computed every position; this only puts
// the pictures together (fill does what lcnotation.svg.fill does) and lets
// the reader move through them.
(function () {
  const data = JSON.parse(document.getElementById("lcn-data").textContent);
  const AT = "@";
  const $ = (id) => document.getElementById(id);

  function place(template, x, y) {
    return template.split(AT).join(x + "," + y);
  }

  // The SVG of a picture ({slots: {name: "R3 R7"}, texts, marks}) in a layout.
  function fill(layout, picture) {
    const slots = picture.slots, texts = picture.texts;
    let out = layout.head + "<desc>";
    for (const part of layout.desc) {
      if (typeof part === "string") out += part;
      else if (part[0] === "slot") out += slots[part[1]] || "-";
      else out += texts[part[1]];
    }
    out += "</desc>" + layout.frame;
    const where = {};
    for (const [name, x, y, dx, dy] of layout.slots) {
      where[name] = [x, y, dx, dy];
      out += '<g data-slot="' + name + '">';
      const codes = slots[name] ? slots[name].split(" ") : [];
      codes.forEach((code, i) => { out += place(layout.cards[code], x + i * dx, y + i * dy); });
      out += "</g>";
    }
    for (const [name, before, after] of layout.texts) out += before + texts[name] + after;
    for (const [kind, name, i] of picture.marks) {
      const [x, y, dx, dy] = where[name];
      out += place(layout.marks[kind], x + i * dx, y + i * dy);
    }
    return out + layout.tail;
  }

  // The picture after the first k moves of game g.
  function pictureAt(g, k) {
    const game = data.games[g];
    const slots = Object.assign({}, game.start.slots);
    const texts = Object.assign({}, game.start.texts);
    let marks = game.start.marks;
    for (let i = 0; i < k; i++) {
      const move = game.moves[i];
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

  // What is shown: the game, the position and the SVG drawn for it.
  const current = {game: 0, at: 0, bottom: 0, svg: ""};
  let diagnosticsAt = [];

  function go(k) {
    const game = data.games[current.game];
    k = Math.max(0, Math.min(game.moves.length, k));
    current.at = k;
    const picture = pictureAt(current.game, k);
    current.svg = fill(layoutOf(current.game, current.bottom), picture);
    $("board").innerHTML = current.svg;
    $("where").textContent = (k === 0 ? "start" : k) + " / " + game.moves.length;
    $("score0").innerHTML = picture.texts.n0 + ": " + picture.texts.t0;
    $("score1").innerHTML = picture.texts.n1 + ": " + picture.texts.t1;
    $("notation").textContent = k ? game.moves[k - 1][0] : "";
    $("words").innerHTML = k ? game.moves[k - 1][1] : "the deal";
    const list = $("diagnostics");
    list.innerHTML = "";
    for (const [severity, text] of diagnosticsAt[k] || []) {
      const item = document.createElement("li");
      item.className = severity;
      item.innerHTML = text;
      list.appendChild(item);
    }
    const items = $("moves").children;
    for (let i = 0; i < items.length; i++) items[i].classList.toggle("current", i === k);
    if (items[k]) items[k].scrollIntoView({block: "nearest"});
  }

  // Only the chosen game's move list is built.
  function showGame(g) {
    current.game = g;
    const game = data.games[g];
    diagnosticsAt = [];
    for (const [at, severity, text] of game.diagnostics) {
      (diagnosticsAt[at] = diagnosticsAt[at] || []).push([severity, text]);
    }
    const list = $("moves");
    list.innerHTML = "";
    const entry = (k, text) => {
      const item = document.createElement("li");
      item.textContent = text;
      if (diagnosticsAt[k]) item.classList.add("diag");
      item.addEventListener("click", () => go(k));
      list.appendChild(item);
    };
    entry(0, "start");
    game.moves.forEach((move, i) => entry(i + 1, move[0]));
    $("game").value = String(g);
    go(0);
  }

  const select = $("game");
  data.games.forEach((game, g) => {
    const option = document.createElement("option");
    option.value = String(g);
    option.innerHTML = (g + 1) + ". " + game.title;
    select.appendChild(option);
  });
  select.addEventListener("change", () => {
    showGame(Number(select.value));
    select.blur();  // the arrow keys step through the moves again
  });
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(current.at - 1));
  $("next").addEventListener("click", () => go(current.at + 1));
  $("last").addEventListener("click", () => go(Infinity));
  const flip = () => { current.bottom = 1 - current.bottom; go(current.at); };
  $("flip").addEventListener("click", flip);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement) return;
    const step = {ArrowLeft: -1, ArrowRight: 1}[event.key];
    if (step) go(current.at + step);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(Infinity);
    else if (event.key === "f") flip();
    else return;
    event.preventDefault();
  });
  window.lcnView = {fill: fill, svgAt: svgAt, go: go, showGame: showGame, current: current};
  if (data.games.length) showGame(0);
  else $("board").textContent = "This record holds no games.";
})();
