// The advisor and forecast panels of a campaign page (every rule system): each is drawn by the server
// (/c/<id>/insight/<kind>) and polled here until its answer is in; a panel swapped in by the live page starts again.
htmx.onLoad(root => root.querySelectorAll(".insight").forEach(box => {  // each panel, as it is drawn or swapped in
  const live = document.getElementById("live");
  const campaign = live.dataset.cid;
  const as = live.dataset.as;
  const body = box.querySelector(".insight-body");
  let timer = null;
  async function poll(retry) {
    timer = null;
    if (!box.isConnected) return;  // swapped out since: the position moved on
    let r;
    const url = `/c/${campaign}/insight/${box.dataset.kind}?retry=${retry ? "true" : "false"}` + (as ? `&as=${as}` : "");
    try { r = await fetch(url, {credentials: "same-origin"}); }
    catch (err) { body.textContent = `the server could not be reached (${err})`; return; }
    if (!r.ok) {  // a refusal page (a revoked link, too many requests): a line, not the page
      body.textContent = [401, 403, 404].includes(r.status) ? "this link may not see this any more: reload the page"
        : `the server answered ${r.status}: reload the page to try again`;
      return;
    }
    body.innerHTML = await r.text();
    const state = body.querySelector("[data-status]")?.dataset.status;
    if (state === "running") timer = setTimeout(poll, 1000);
    body.querySelector(".insight-retry")?.addEventListener("click", () => poll(true));
  }
  const start = box.querySelector(".insight-start");
  if (start) start.addEventListener("click", () => { start.hidden = true; if (!timer) poll(false); });
  if (box.dataset.auto) poll(false);
}));
