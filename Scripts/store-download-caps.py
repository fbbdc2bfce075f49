#!/usr/bin/env python3
"""Measures how `livery install` ends hostile downloads: an endless body without a
catalog, a 10 GB Content-Length, and a 1-byte drip. Prints, per case, the exit status, the time,
the bytes the server managed to send, and the client's peak resident memory.

    swift build --product livery
    python3 Scripts/store-download-caps.py "$(swift build --show-bin-path)/livery" [CASE...]

With CASE names (endless, huge, drip), runs only those. Tests/LiveryCLITests/StoreCommandTests.swift
runs it and checks the numbers.
"""
import http.server, os, socketserver, subprocess, sys, tempfile, threading, time

sent = {"bytes": 0}

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        zeros = b"\0" * 65536
        try:
            if self.path.startswith("/endless"):
                self.send_response(200); self.send_header("Connection", "close"); self.end_headers()
                while True:
                    self.wfile.write(zeros); sent["bytes"] += len(zeros)
            elif self.path.startswith("/huge"):
                self.send_response(200); self.send_header("Content-Length", str(10 << 30)); self.end_headers()
                while True:
                    self.wfile.write(zeros); sent["bytes"] += len(zeros)
            elif self.path.startswith("/drip"):
                self.send_response(200); self.send_header("Content-Length", "100000"); self.end_headers()
                while True:
                    self.wfile.write(b"x"); self.wfile.flush(); sent["bytes"] += 1; time.sleep(0.5)
        except (BrokenPipeError, ConnectionResetError):
            pass

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

def main():
    livery = sys.argv[1]
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % server.server_address[1]
    print("case       exit  seconds  server sent (bytes)  client peak RSS (MiB)")
    cases = [("endless", []), ("huge", []), ("drip", ["--timeout", "5", "--total-timeout", "10"])]
    for case, extra in [(case, extra) for case, extra in cases if case in (sys.argv[2:] or [case])]:
        sent["bytes"] = 0
        folder = tempfile.mkdtemp(prefix="livery-caps-")
        start = time.monotonic()
        with tempfile.TemporaryFile() as stderr:
            # wait4 gives this process's own peak, not the largest of all children so far.
            process = subprocess.Popen([livery, "install", base + "/" + case + "/x.liverypkg", "--into", folder] + extra,
                                       stdout=subprocess.DEVNULL, stderr=stderr)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            elapsed = time.monotonic() - start
            stderr.seek(0)
            message = stderr.read().decode().strip()
        print("%-9s  %4d  %7.1f  %19d  %21.0f   %s" % (case, process.returncode, elapsed, sent["bytes"], usage.ru_maxrss / 1024,
                                                     message[:90]))

main()
