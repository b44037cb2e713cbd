// The campaign page's script (every rule system): actions, results, undo, the map's clicks, and following the
// others' moves. The page follows the campaign live with htmx and its SSE extension: each change the server
// announces fetches the page again (unless the page shows that position already: its own action's), and only the
// parts whose digest changed are sent in full and swapped in (templates/parts.html).
// A form someone is typing in is kept as it is (hx-preserve), so a move elsewhere never wipes half-typed input.
// The campaign and the link the page acts as come from the #live element (templates/play.js.html).
(() => {
const live = document.getElementById("live");
const cid = live.dataset.cid;
const as = live.dataset.as;
live.setAttribute("hx-select-oob", [...document.querySelectorAll("[data-v]")].map(e => "#" + e.id).join(","));
function api(path) {  // the API address acting as this page's link (a browser may hold several: web.chosen_secret)
  return `/api/campaigns/${cid}/${path}` + (as ? `${path.includes("?") ? "&" : "?"}as=${as}` : "");
}
function shown() {  // the position this page shows: an action sent from another one is a conflict
  const p = document.querySelector("#position span").dataset;
  return {seq: Number(p.seq), epoch: Number(p.epoch), waiting: p.waiting};
}
function say(text) { document.getElementById("message").textContent = text; }
function refresh() { htmx.trigger(live, "refresh"); }
window.warroomRefresh = refresh;
function named(p) { return `${p.seq}/${p.epoch}/${p.waiting}`; }
let fetching = false;  // the page is fetching itself now (its own action's answer, or an announced change) ...
let announced = "";  // ... and the position the server announced meanwhile, checked once that fetch is in
window.warroomAnnounced = e => {  // the server announces a change: fetch the page only if it shows another position
  let p;  // (a page that acted has fetched itself once its action was taken: the change it made is no news to it)
  try { p = JSON.parse(e.detail.data); } catch (err) { return true; }
  if (fetching) { announced = named(p); return false; }
  return named(p) !== named(shown());
};
live.addEventListener("htmx:configRequest", e => {  // the parts shown, by digest: those unchanged come back empty
  e.detail.headers["X-Warroom-Parts"] = [...document.querySelectorAll("[data-v]")].map(p => `${p.id}:${p.dataset.v}`)
    .join(",");
});
live.addEventListener("htmx:beforeSend", () => { fetching = true; });
for (const end of ["htmx:afterRequest", "htmx:onLoadError"]) {
  live.addEventListener(end, () => {
    fetching = false;
    const missed = announced;
    announced = "";
    if (missed && missed !== named(shown())) refresh();  // fetched before that change: fetch it again
  });
}
async function send(path, body, method) {  // this page's own request: its answer when accepted, else null
  let r;
  try {
    r = await fetch(api(path), method === "GET" ? {credentials: "same-origin"} :
                    {method: "POST", headers: {"Content-Type": "application/json"},
                     body: JSON.stringify(body || {}), credentials: "same-origin"});
  } catch (err) {
    say(`the server could not be reached (${err}); try again`);
    return null;
  }
  const answer = await r.json().catch(() => ({detail: r.statusText}));
  if (!r.ok) {
    say(typeof answer.detail === "string" ? answer.detail : JSON.stringify(answer.detail));
    if (r.status === 409) setTimeout(refresh, 1500);  // someone acted first: show what they did, keep the input
    return null;
  }
  say("");
  return answer;
}
async function post(path, body, form) {
  if (await send(path, body) !== null) {
    if (form) delete form.dataset.dirty;  // sent: the next drawing may replace it
    refresh();
  }
}
window.warroomPost = post;
function newKey() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2); }
function act(text, form) {
  const p = shown();
  return post("act", {action: text, key: newKey(), seq: p.seq, epoch: p.epoch}, form);
}
window.warroomAct = act;
function result(box, form) {  // a result form's values, for the battle its box is about
  const p = shown();
  return {battle: Number(box.dataset.battle), seq: p.seq, epoch: p.epoch,
          attacker_vp: Number(form.attacker.value), defender_vp: Number(form.defender.value)};
}
function showing(box) {  // the result the box shows, so that a confirmation never settles another
  return {battle: Number(box.dataset.battle), epoch: shown().epoch, ...(box.dataset.attacker !== undefined ?
    {attacker_vp: Number(box.dataset.attacker), defender_vp: Number(box.dataset.defender)} : {})};
}
document.addEventListener("click", e => {
  const t = e.target.closest("button, [data-area]");
  if (!t) return;
  const box = t.closest(".result");
  if (t.dataset.action) act(t.dataset.action);
  else if (t.id === "choose") act(document.getElementById("choice").value);
  else if (box && t.classList.contains("confirm")) post("confirm", showing(box));
  else if (box && t.classList.contains("dispute")) post("dispute", showing(box));
  else if (box && t.classList.contains("decide-yes")) {
    const form = t.closest("form");
    post("decide", {...result(box, form), key: form.dataset.key}, form);
  } else if (t.classList.contains("decide-no")) t.closest(".decide-confirm").hidden = true;
  else if (t.id === "undo-confirm") undoConfirmed(JSON.parse(t.dataset.preview));
  else if (t.dataset.area) { areaDetails(t.dataset.area); (window.warroomMapClick || mapClick)(t.dataset.area, t); }
});
function cells(id) { return document.querySelectorAll(`.cell[data-area="${CSS.escape(id)}"]`); }
function mark(ids, cls) {  // the map's areas an action names, highlighted
  document.querySelectorAll(`.cell.${cls}`).forEach(c => c.classList.remove(cls));
  ids.forEach(id => cells(id).forEach(c => c.classList.add(cls)));
}
function areasOf(action) { return action.split(" ").filter(w => cells(w).length); }
for (const [kind, on] of [["mouseover", true], ["focusin", true], ["mouseout", false], ["focusout", false]]) {
  document.addEventListener(kind, e => {  // hovering a choice shows the areas it names on the map
    const b = e.target.closest && e.target.closest("[data-action]");
    if (b) mark(on ? areasOf(b.dataset.action) : [], "hovered");
  });
}
let from = null;  // a battle arrow drawn on the map: click the area to attack from, then the area to attack
function hint(text) { const h = document.getElementById("hint"); if (h) h.textContent = text; }
function mapClick(id) {
  const arrows = [...document.querySelectorAll('[data-action^="arrow "]')].map(b => b.dataset.action.split(" "));
  if (from && arrows.some(a => a[1] === from && a[2] === id)) {
    const action = `arrow ${from} ${id}`;
    from = null; mark([], "chosen"); mark([], "choosable"); hint("");
    act(action);
    return;
  }
  const targets = arrows.filter(a => a[1] === id).map(a => a[2]);
  from = targets.length ? id : null;
  mark(from ? [id] : [], "chosen");
  mark(targets, "choosable");
  hint(from ? `Attack from ${id}: now click one of the highlighted areas (or another area of yours).` :
       arrows.length ? "Click one of your areas next to the enemy to attack from it." : "");
}
document.addEventListener("keydown", e => {  // a map control that takes the focus answers Enter and Space too
  const t = e.target.closest && e.target.closest('[role="button"][data-area]');
  if (t && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); areaDetails(t.dataset.area); }
});
document.addEventListener("submit", async e => {
  const form = e.target;
  const box = form.closest(".result");
  e.preventDefault();
  if (form.id === "typed") act(form.action.value, form);
  else if (box && form.classList.contains("report")) post("report", {...result(box, form), key: newKey()}, form);
  else if (box && form.classList.contains("decide")) {  // the organiser settles a result: typed, then confirmed
    const r = result(box, form);
    form.dataset.key = newKey();  // a retried click settles it once
    form.querySelector(".decide-text").textContent =
      `Settle ${box.querySelector("h3").textContent} as attacker ${r.attacker_vp}, defender ${r.defender_vp} VP?`;
    form.querySelector(".decide-confirm").hidden = false;
  } else if (form.id === "undo") await previewUndo(form);
  else if (form.id === "allocate-form") await allocate(form);
});
async function allocate(form) {  // one field per enemy unit, checked against the dice, then sent one by one
  const wanted = [...form.querySelectorAll("input[type=number]")].map(i => [i.name, Number(i.value) || 0])
    .filter(([, n]) => n > 0);
  const total = wanted.reduce((sum, [, n]) => sum + n, 0);
  const left = Number(form.dataset.left);
  if (!total) { say("put at least one die on an enemy unit"); return; }
  if (total > left) { say(`you have ${left} dice to share out, not ${total}`); return; }
  if (form.dataset.mayHold !== "1" && total < left) { say(`share out all ${left} dice (${total} so far)`); return; }
  let ok = true;
  for (const [target, n] of wanted) {
    const view = await send("view", null, "GET");  // what is declared already: the rules give the last unit the
    if (view === null) { ok = false; break; }      // dice left over by themselves
    const volley = (view.strategic?.combat?.volleys || []).find(v => !v.hidden && v.left > 0);
    if (!volley) break;
    if (volley.alloc && target in volley.alloc) continue;
    const answer = await send("act", {action: `allocate ${target} ${n}`, key: newKey(), seq: view.seq,
                                      epoch: view.epoch});
    if (answer === null) { ok = false; break; }
  }
  delete form.dataset.dirty;  // declared, or refused: the next drawing shows what is left to declare
  if (ok) say("");
  refresh();
}
async function undoConfirmed(preview) {  // done: the preview goes, and the page shows the campaign as it is now
  if (await send("undo", preview) === null) return;
  document.getElementById("undo-preview").hidden = true;
  delete document.getElementById("undo").dataset.dirty;
  refresh();
}
async function previewUndo(form) {
  const count = Number(form.count.value);
  const body = await send(`undo?count=${count}`, null, "GET");
  if (body === null) return;
  form.dataset.dirty = "1";  // the preview stays up while the campaign moves on: confirming it then is refused
  const list = document.getElementById("undone"); list.innerHTML = "";
  for (const u of body.undone) {
    const li = document.createElement("li");
    li.textContent = `turn ${u.turn}, ${u.who}: ${u.words}`;
    list.appendChild(li);
  }
  for (const [id, results] of [["undo-discarded", body.discarded], ["undo-kept", body.kept]]) {
    const part = document.getElementById(id); const items = part.querySelector("ul"); items.innerHTML = "";
    for (const w of results) {
      const li = document.createElement("li");
      li.textContent = `${w.title}: attacker ${w.attacker_vp}, defender ${w.defender_vp} VP (reported by the ${w.by_name}` +
                       (w.disputed ? ", disputed)" : ")");
      items.appendChild(li);
    }
    part.hidden = results.length === 0;
  }
  const confirm = document.getElementById("undo-confirm");
  confirm.dataset.preview = JSON.stringify({count: count, seq: body.seq, waiting: body.waiting, epoch: body.epoch});
  document.getElementById("undo-preview").hidden = false;
}
document.addEventListener("input", e => {  // typed in: kept through the page's redrawing until sent
  const form = e.target.closest("form[id]");
  if (form) form.dataset.dirty = "1";
});
document.addEventListener("change", e => {
  if (e.target.closest("#switches")) post("switches", {[e.target.name]: e.target.checked});
});
document.body.addEventListener("htmx:oobBeforeSwap", e => {  // a part swapped only when it changed ...
  const now = e.detail.target, next = e.detail.fragment.firstElementChild;
  if (!next || (now.dataset.v && now.dataset.v === next.dataset.v)) { e.detail.shouldSwap = false; return; }
  next.querySelectorAll("form[id]").forEach(f => {  // ... and a form being typed in is kept as it is
    const old = document.getElementById(f.id);
    if (old && (old.dataset.dirty || old.contains(document.activeElement))) f.setAttribute("hx-preserve", "");
  });
});
function areaDetails(id) {  // the clicked area's details, from the map part's data
  const data = document.querySelector("#maps .area-data, #board .area-data");
  const a = data ? JSON.parse(data.textContent)[id] : null;
  const box = document.getElementById("details");
  if (!a || !box) return;
  box.innerHTML = "";
  const h = document.createElement("h2"); h.textContent = a.title || `${a.id} ${a.name}`; box.appendChild(h);
  for (const [k, v] of a.rows || [["held by", a.controller], ["VP", a.vp], ["terrain", a.terrain],
                                  ["troops", (a.troops || []).join(", ") || "none"],
                                  ["in supply", a.supplied ? "yes" : "no"], ["features", (a.flags || []).join(", ") || "-"]]) {
    const p = document.createElement("p"); p.textContent = `${k}: ${v}`; box.appendChild(p);
  }
}
})();
