# Shared by scripts/run and scripts/test: installs what is missing, and nothing else.

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

# ensure_debian_packages PKG... : apt-get install the ones dpkg does not have.
ensure_debian_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "# installing Debian packages: ${missing[*]}" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# What building the package needs, named once for every script that builds: libsqlite3-dev
# (GRDB), libcairo2-dev and fonts-dejavu-core (the PDFs and charts), libical-dev (iCalendar and
# RRULE), libcurl4-openssl-dev (the libcurl that assistantctl links for the MCP SDK's
# FoundationNetworking; see Package.swift), libqrencode-dev (the pairing address as a QR code).
# The installed programs need only the shared libraries of these at run time: libsqlite3-0,
# libcairo2, libical3, libcurl4 and libqrencode4.
build_packages=(libsqlite3-dev libcairo2-dev libical-dev libcurl4-openssl-dev libqrencode-dev fonts-dejavu-core)

# ensure_build_packages [PKG...]: the build's packages, and any others the caller names.
ensure_build_packages() {
  ensure_debian_packages "${build_packages[@]}" "$@"
}

# ensure_test_venv: .venv with the pinned peers of Tests/peers/requirements.txt.
ensure_test_venv() {
  local requirements=Tests/peers/requirements.txt
  local stamp=.venv/.requirements.sha256
  local want
  want=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ -x .venv/bin/python ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return 0; fi
  if ! python3 -m venv --help >/dev/null 2>&1; then ensure_debian_packages python3-venv; fi
  echo "# creating .venv with the test peers" >&2
  python3 -m venv .venv >&2
  .venv/bin/pip install -q --disable-pip-version-check -r "$requirements" >&2
  echo "$want" >"$stamp"
}
