# Sourced by the scripts that render GTK windows (Scripts/test.sh, Scripts/sanitizers.sh,
# Scripts/bench.sh): starts a private Xvfb display unless one is already set, exports DISPLAY and
# the software renderer, and stops the server when the sourcing script exits.
if [ -z "${DISPLAY:-}" ]; then
    livery_display=""
    for n in $(seq 99 140); do
        if [ ! -e "/tmp/.X${n}-lock" ] && [ ! -e "/tmp/.X11-unix/X${n}" ]; then livery_display=$n; break; fi
    done
    if [ -z "$livery_display" ]; then echo "no free X display number in 99-140" >&2; exit 1; fi
    Xvfb ":$livery_display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
    livery_xvfb_pid=$!
    trap 'kill "$livery_xvfb_pid" 2>/dev/null || true' EXIT
    export DISPLAY=":$livery_display"
    for _ in $(seq 1 100); do
        [ -e "/tmp/.X11-unix/X${livery_display}" ] && break
        sleep 0.05
    done
    if [ ! -e "/tmp/.X11-unix/X${livery_display}" ]; then echo "Xvfb did not start on :$livery_display" >&2; exit 1; fi
fi
export GSK_RENDERER="${GSK_RENDERER:-cairo}"
export GDK_BACKEND="${GDK_BACKEND:-x11}"
