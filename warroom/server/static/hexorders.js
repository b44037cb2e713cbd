// Moving units on a hex map (Narvik's page): the moves open to the player come as data (#orders-data, from
// narvik_board.orders), not as a button each. Click one of your stacks (again for its next unit) or choose a unit
// in the list: the hexes it can reach are highlighted on the map, under the stacks, and listed as buttons. Click a
// highlighted hex to move there (a click on a stack's token selects that stack instead, never moves). Where the
// unit can reach the hex in more than one way, a plain move is sent if it is one of them (rail movement ends in the
// same place); otherwise (a truck, the landing craft) the buttons for that hex are picked out to choose from. Each
// action is sent as the page's others are (play.js: warroomAct); the selection stays until the move is made.
(() => {
const SVG = "http://www.w3.org/2000/svg";
let chosen = "";  // the unit whose moves are shown
let data = null, read = null;  // the orders as last read, and the element they were read from
function plan() {
  const el = document.getElementById("orders-data");
  if (el !== read) { read = el; data = el ? JSON.parse(el.textContent) : null; }
  return data;
}
function hint(text) { const h = document.getElementById("hint"); if (h) h.textContent = text; }
function unitOf(p, id) { return p ? p.units.find(u => u.id === id) : undefined; }
function overlay() {  // the map's layer of highlighted hexes, under the stacks; made afresh with each new map
  const svg = document.querySelector(".narvik-board svg");
  if (!svg) return null;
  let g = svg.querySelector("g.targets");
  if (!g) {
    g = document.createElementNS(SVG, "g");
    g.setAttribute("class", "targets");
    const stack = svg.querySelector(".stack");
    if (stack) stack.parentNode.insertBefore(g, stack); else svg.appendChild(g);
  }
  return g;
}
function hexagon(p, hex) {  // a flat-topped hex round its centre on the drawing
  const [x, y] = p.at[hex], r = p.r, h = r * Math.sqrt(3) / 2;
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", `M${x - r} ${y}L${x - r / 2} ${y - h}L${x + r / 2} ${y - h}L${x + r} ${y}` +
                         `L${x + r / 2} ${y + h}L${x - r / 2} ${y + h}Z`);
  path.setAttribute("class", "target");
  path.dataset.area = hex;
  const tip = document.createElementNS(SVG, "title");
  tip.textContent = `move here: ${p.names[hex]}`;
  path.appendChild(tip);
  return path;
}
function drawn(p, u) {  // the unit's reach on the map, and its stack marked (no unit: none)
  const g = overlay();
  if (g) g.replaceChildren();
  document.querySelectorAll(".narvik .stack.chosen").forEach(s => s.classList.remove("chosen"));
  if (!u) return;
  document.querySelectorAll(`.narvik .stack.${p.side}[data-area="${CSS.escape(u.hex)}"]`)
    .forEach(s => s.classList.add("chosen"));
  if (g) new Set(u.ways.flatMap(w => w.to)).forEach(hex => g.appendChild(hexagon(p, hex)));
}
function listed(p, u) {  // the unit's moves as buttons, and the list showing it (no unit: none)
  const ways = document.getElementById("ways"), list = document.getElementById("mover");
  if (list) list.value = u ? u.id : "";
  if (!ways) return;
  ways.replaceChildren();
  for (const w of u ? u.ways : []) {
    for (const hex of w.to) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.action = `${w.prefix} ${hex}`;
      b.dataset.hex = hex;
      b.title = b.dataset.action;
      b.textContent = `${w.how === "move" ? "" : w.how + " "}to ${p.names[hex]}`;
      ways.appendChild(b);
    }
  }
}
function show(id) {  // a unit chosen (none: everything cleared)
  const p = plan(), u = unitOf(p, id);
  chosen = u ? id : "";
  drawn(p, u);
  listed(p, u);
  if (u) hint(`${u.words} in ${p.names[u.hex]}: click a highlighted hex to move it there.`);
}
function moveTo(p, u, hex) {  // a highlighted hex clicked: the move, or the choice of how
  const ways = u.ways.filter(w => w.to.includes(hex));
  const plain = ways.find(w => w.how === "move");
  if (ways.length === 1 || plain) { window.warroomAct(`${(plain || ways[0]).prefix} ${hex}`); return; }
  const picked = [...document.querySelectorAll("#ways button")].filter(b => b.dataset.hex === hex);
  document.querySelectorAll("#ways button").forEach(b => b.classList.toggle("picked", picked.includes(b)));
  hint(`${u.words} can reach ${p.names[hex]} in ${ways.length} ways: choose one of the marked buttons.`);
  if (picked.length) { picked[0].scrollIntoView({block: "nearest"}); picked[0].focus({preventScroll: true}); }
}
window.warroomMapClick = (hex, el) => {
  const p = plan();
  if (!p) return;
  const u = unitOf(p, chosen);
  if (u && el && el.classList.contains("target")) { moveTo(p, u, hex); return; }
  if (!el || !el.classList.contains("stack") || !el.classList.contains(p.side)) return;  // the enemy's: details
  const here = p.units.filter(v => v.hex === hex);  // a stack of the player's: its next unit to move
  if (!here.length) { show(""); hint(`No unit in ${p.names[hex] || hex} can move now.`); return; }
  show(here[(here.findIndex(v => v.id === chosen) + 1) % here.length].id);
};
document.addEventListener("change", e => { if (e.target.id === "mover") show(e.target.value); });
for (const [kind, on] of [["mouseover", true], ["focusin", true], ["mouseout", false], ["focusout", false]]) {
  document.addEventListener(kind, e => {  // a move's button marks its hex on the map
    const b = e.target.closest && e.target.closest("#ways [data-hex]");
    if (!b) return;
    document.querySelectorAll(`.narvik .target[data-area="${CSS.escape(b.dataset.hex)}"]`)
      .forEach(t => t.classList.toggle("hovered", on));
  });
}
let focused = "";  // what had the keyboard in the orders when the page was redrawn: it gets it back
document.body.addEventListener("htmx:oobBeforeSwap", e => {
  const a = document.activeElement;
  if (e.detail.target && e.detail.target.id === "console" && a && a.closest(".orders")) {
    focused = a.dataset.action ? `[data-action="${CSS.escape(a.dataset.action)}"]` : "#mover";
  }
});
document.body.addEventListener("htmx:oobAfterSwap", e => {  // redrawn: the chosen unit's moves as they are now
  const id = e.detail.target && e.detail.target.id;
  if (id !== "board" && id !== "console") return;
  const p = plan(), u = unitOf(p, chosen);
  if (chosen && !u) { chosen = ""; hint(""); }
  drawn(p, u);  // a new map: the highlights again
  if (id !== "console") return;
  listed(p, u);  // new choices: the unit's buttons again, and the keyboard where it was
  const back = focused && (document.querySelector(`#ways ${focused}`) || document.getElementById("mover"));
  if (back) back.focus();
  focused = "";
});
})();
