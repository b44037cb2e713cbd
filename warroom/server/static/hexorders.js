// Moving units on a hex map (Narvik's page): the moves open to the player come as data (#orders-data, from
// narvik_board.orders), not as a button each. Click one of your stacks (again for its next unit) or choose a unit
// in the list: the hexes it can reach are highlighted on the map and listed as buttons. Click a highlighted hex to
// move there; where the unit has more than one way to reach it (on its own, by rail, in a truck), the buttons for
// that hex are picked out to choose from. Each action is sent as the page's others are (play.js: warroomAct).
(() => {
const SVG = "http://www.w3.org/2000/svg";
let chosen = "";  // the unit whose moves are shown
function plan() {
  const data = document.getElementById("orders-data");
  return data ? JSON.parse(data.textContent) : null;
}
function hint(text) { const h = document.getElementById("hint"); if (h) h.textContent = text; }
function unitOf(p, id) { return p ? p.units.find(u => u.id === id) : undefined; }
function waysTo(u, hex) { return u.ways.filter(w => w.to.includes(hex)); }
function overlay() {  // the map's layer of highlighted hexes, made afresh each time the map is redrawn
  const svg = document.querySelector(".narvik-board svg");
  if (!svg) return null;
  let g = svg.querySelector("g.targets");
  if (!g) { g = document.createElementNS(SVG, "g"); g.setAttribute("class", "targets"); svg.appendChild(g); }
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
function show(id) {  // the unit's moves on the map and as buttons (none: everything cleared)
  const p = plan(), u = unitOf(p, id);
  chosen = u ? id : "";
  const g = overlay(), ways = document.getElementById("ways"), list = document.getElementById("mover");
  if (g) g.replaceChildren();
  document.querySelectorAll(".narvik .stack.chosen").forEach(s => s.classList.remove("chosen"));
  if (ways) ways.replaceChildren();
  if (list) list.value = chosen;
  if (!u) return;
  document.querySelectorAll(`.narvik .stack[data-area="${CSS.escape(u.hex)}"]`).forEach(s => s.classList.add("chosen"));
  const reached = new Set();
  for (const w of u.ways) {
    for (const hex of w.to) {
      reached.add(hex);
      if (!ways) continue;
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.action = `${w.prefix} ${hex}`;
      b.dataset.hex = hex;
      b.title = b.dataset.action;
      b.textContent = `${w.how === "move" ? "" : w.how + " "}to ${p.names[hex]}`;
      ways.appendChild(b);
    }
  }
  if (g) reached.forEach(hex => g.appendChild(hexagon(p, hex)));
  hint(`${u.words} in ${p.names[u.hex]}: click a highlighted hex to move it there.`);
}
window.warroomMapClick = hex => {
  const p = plan();
  if (!p) return;
  const u = unitOf(p, chosen);
  const ways = u ? waysTo(u, hex) : [];
  if (ways.length === 1) { const action = `${ways[0].prefix} ${hex}`; show(""); hint(""); window.warroomAct(action); return; }
  if (ways.length > 1) {  // more than one way there: the player says which
    document.querySelectorAll("#ways button").forEach(b => b.classList.toggle("picked", b.dataset.hex === hex));
    hint(`${u.words} can reach ${p.names[hex]} in ${ways.length} ways: choose one of the marked buttons.`);
    return;
  }
  const here = p.units.filter(v => v.hex === hex);  // a stack of the player's: its next unit that can move
  if (!here.length) { show(""); hint(""); return; }
  const next = here[(here.findIndex(v => v.id === chosen) + 1) % here.length];
  show(next.id);
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
function redrawn() {  // the map or the choices swapped in afresh: the chosen unit's moves as they are now
  const p = plan();
  if (chosen && !unitOf(p, chosen)) hint("");
  show(unitOf(p, chosen) ? chosen : "");
}
document.body.addEventListener("htmx:oobAfterSwap", e => {
  if (["board", "console"].includes(e.detail.target && e.detail.target.id)) redrawn();
});
})();
