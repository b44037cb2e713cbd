#!/bin/sh
# The browser libraries the club pages load, served by the club server itself (no CDN: a club server may run with
# no internet). They are the published npm packages, unmodified; this script fetches them again and checks that
# warroom/server/static/vendor holds exactly those files. `scripts/vendor-web.sh --update` rewrites them (then
# update the checksums below).
set -eu
HTMX=2.0.11
SSE=2.2.4
DEST=$(dirname "$0")/../warroom/server/static/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "htmx.org@$HTMX" "htmx-ext-sse@$SSE" >/dev/null)
tar xzf "$work/htmx.org-$HTMX.tgz" -C "$work" package/dist/htmx.min.js package/LICENSE
mv "$work/package" "$work/htmx"
tar xzf "$work/htmx-ext-sse-$SSE.tgz" -C "$work" package/dist/sse.min.js package/LICENSE
mv "$work/package" "$work/sse"
if [ "${1:-}" = "--update" ]; then
  cp "$work/htmx/dist/htmx.min.js" "$DEST/htmx.min.js"
  cp "$work/sse/dist/sse.min.js" "$DEST/htmx-ext-sse.min.js"
  { cat "$work/htmx/LICENSE"; echo; echo ----; cat "$work/sse/LICENSE"; } > "$DEST/LICENSES.txt"
fi
cmp "$work/htmx/dist/htmx.min.js" "$DEST/htmx.min.js"
cmp "$work/sse/dist/sse.min.js" "$DEST/htmx-ext-sse.min.js"
cd "$DEST" && sha256sum -c <<SUMS
d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717  htmx.min.js
98a46496de0c3605fbffdce9167ba427bdd9553184f83f149c261891a92c0136  htmx-ext-sse.min.js
SUMS
