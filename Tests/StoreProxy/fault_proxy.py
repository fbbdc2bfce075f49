"""A fault-injecting HTTP proxy for the store's network tests: it sits between `livery install`
and nginx on loopback and, for each connection, follows a schedule drawn from a seed.

One request per connection: the proxy reads the request head, opens its own connection to nginx
(`Connection: close`), and passes the response on with `Connection: close`, so the n-th
connection of a run is the n-th request, and the schedule is `Random(f"{seed}:{n}")`.

Faults (the `FAULTS` names):
  cut      forward the response, close after N bytes (head included)
  stall    forward N bytes, then send nothing for `stall` seconds (past the client's idle
           timeout), then close
  reset    close with a TCP reset (SO_LINGER 0) after N bytes, possibly before any byte
  busy     answer 503 with a small Retry-After, never asking nginx
  changed  a range request goes to the changed copy of the file (`changed_prefix` + path: same
           size, other bytes, other validator): with If-Range nginx answers 200 (start over);
           without it (`changed-no-if-range`, If-Range dropped as a broken cache would) the
           client gets 206 of other bytes, which only the SHA-256 check can catch
  lie      a 206's Content-Range is rewritten to claim another start, end or total
  pass     forward untouched
Faults stop after `faulty_connections` connections (drawn from the seed), so every run ends.

Two settings serve the kill-and-restart check (run_seeds.py --kills): `rate` trickles package
bodies at that many bytes per second, so that a client killed at a random moment is killed in
the middle of a download; `drop_range` forwards range requests without `Range` and `If-Range`, as a
server without range support would (the sabotage that check must catch). `requests` records, per
request, its path, the start its `Range` asked for and the body bytes sent.
Only loopback addresses are used. Standard library only.
"""
import asyncio
import random
import re
import socket
import struct

FAULTS = ["pass", "cut", "stall", "reset", "busy", "changed", "changed-no-if-range", "lie"]
WEIGHTS = [30, 16, 8, 12, 10, 6, 6, 12]
RANGE_WEIGHTS = [20, 10, 5, 5, 5, 18, 17, 20]


class Counters:
    """What the proxy sent to clients: bytes per path and in all, faults applied."""

    def __init__(self):
        self.bytes_by_path = {}
        self.faults = {}
        self.connections = 0

    def sent(self, path, count):
        self.bytes_by_path[path] = self.bytes_by_path.get(path, 0) + count

    def total(self, suffix=""):
        return sum(count for path, count in self.bytes_by_path.items() if path.endswith(suffix))


class FaultProxy:
    def __init__(self, upstream_port, seed=0, stall=2.0, retry_after=1, faulty_connections=None,
                 cut_every=None, only_suffix=None, changed_prefix="/changed", rate=None, drop_range=False):
        self.upstream_port = upstream_port
        self.seed = seed
        self.stall = stall
        self.retry_after = retry_after
        rng = random.Random(f"{seed}:schedule")
        self.faulty_connections = rng.randint(4, 14) if faulty_connections is None else faulty_connections
        # cut_every: instead of a seeded schedule, cut every response after that many bytes
        # (the bandwidth measurement).
        self.cut_every = cut_every
        self.only_suffix = only_suffix
        self.changed_prefix = changed_prefix
        self.rate = rate
        self.drop_range = drop_range
        self.requests = []
        # Set when a trickled package body starts (the kill check waits for it).
        self.package_started = asyncio.Event()
        self.counters = Counters()
        self.log = []
        self.server = None
        self.port = None

    async def start(self):
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def stop(self):
        self.server.close()
        await self.server.wait_closed()

    def plan(self, index, path, headers):
        """The fault for connection `index` and its byte count."""
        if self.cut_every is not None:
            return ("cut", self.cut_every) if path.endswith(self.only_suffix or "") else ("pass", 0)
        rng = random.Random(f"{self.seed}:{index}")
        ranged = "range" in headers
        # A resumed download (a range request) is where the range faults can happen: more of them.
        fault = rng.choices(FAULTS, RANGE_WEIGHTS if ranged else WEIGHTS)[0]
        if index >= self.faulty_connections:
            fault = "pass"
        if fault in ("changed", "changed-no-if-range", "lie") and not ranged:
            # Only a range request can get another file's range or a wrong Content-Range; a
            # whole request gets a cut instead.
            fault = "cut"
        if fault in ("changed", "changed-no-if-range") and not path.endswith(".liverypkg"):
            fault = "cut"
        # Where to cut: in the head, early in the body, or deep in it.
        count = rng.choice([rng.randint(0, 200), rng.randint(200, 20_000), rng.randint(20_000, 3_000_000)])
        return fault, count

    async def handle(self, reader, writer):
        index = self.counters.connections
        self.counters.connections += 1
        try:
            await asyncio.wait_for(self.serve(index, reader, writer), timeout=60)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError, OSError):
            pass
        finally:
            writer.close()

    async def serve(self, index, reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        path = target if target.startswith("/") else "/" + target.split("/", 3)[-1]
        fault, count = self.plan(index, path, headers)
        self.counters.faults[fault] = self.counters.faults.get(fault, 0) + 1
        self.log.append((index, method, path, headers.get("range", ""), fault, count))
        asked = re.match(r"bytes=(\d+)-", headers.get("range", ""))
        record = {"index": index, "path": path, "start": int(asked.group(1)) if asked else 0, "body": 0}
        self.requests.append(record)
        if self.drop_range:
            headers.pop("range", None)
            headers.pop("if-range", None)

        if fault == "busy":
            answer = (f"HTTP/1.1 503 Service Unavailable\r\nRetry-After: {self.retry_after}\r\n"
                      "Content-Length: 0\r\nConnection: close\r\n\r\n").encode()
            writer.write(answer)
            self.counters.sent(path, len(answer))
            await writer.drain()
            return
        if fault == "reset" and count < 200:
            self.reset(writer)
            return

        upstream_path = path
        if fault in ("changed", "changed-no-if-range"):
            upstream_path = self.changed_prefix + path
            if fault == "changed-no-if-range":
                headers.pop("if-range", None)
        request = [f"{method} {upstream_path} HTTP/1.1"]
        for name, value in headers.items():
            if name not in ("connection", "keep-alive", "host"):
                request.append(f"{name}: {value}")
        request += [f"host: 127.0.0.1:{self.upstream_port}", "connection: close", "", ""]
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        try:
            up_writer.write("\r\n".join(request).encode("latin-1"))
            await up_writer.drain()
            response_head = await up_reader.readuntil(b"\r\n\r\n")
            response_head = self.rewrite_head(response_head, fault, random.Random(f"{self.seed}:{index}:lie"))
            sent = 0
            limit = count if fault in ("cut", "stall", "reset") else None
            trickle = self.rate if self.rate and path.endswith(".liverypkg") else None
            if trickle:
                self.package_started.set()
            chunks = [response_head]
            while True:
                for chunk in chunks:
                    if limit is not None and sent + len(chunk) >= limit:
                        chunk = chunk[: max(0, limit - sent)]
                        writer.write(chunk)
                        self.counters.sent(path, len(chunk))
                        record["body"] = max(0, sent + len(chunk) - len(response_head))
                        await writer.drain()
                        await self.end_with(fault, writer)
                        return
                    writer.write(chunk)
                    sent += len(chunk)
                    self.counters.sent(path, len(chunk))
                    record["body"] = max(0, sent - len(response_head))
                    await writer.drain()
                    if trickle:
                        await asyncio.sleep(len(chunk) / trickle)
                data = await up_reader.read(16384 if trickle else 65536)
                if not data:
                    return
                chunks = [data]
        finally:
            up_writer.close()

    async def end_with(self, fault, writer):
        if fault == "stall":
            await asyncio.sleep(self.stall)
        elif fault == "reset":
            self.reset(writer)

    @staticmethod
    def reset(writer):
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    @staticmethod
    def rewrite_head(head, fault, rng):
        lines = head.decode("latin-1").split("\r\n")
        out = []
        for line in lines:
            name = line.split(":", 1)[0].strip().lower() if ":" in line else ""
            if name in ("connection", "keep-alive"):
                continue
            if name == "content-range" and fault == "lie":
                # bytes START-END/TOTAL: claim another start, end or total (the body is unchanged).
                unit, spec = line.split(":", 1)[1].strip().split(" ", 1)
                span, total = spec.split("/")
                start, end = (int(x) for x in span.split("-"))
                which = rng.choice(["start", "end", "total"])
                delta = rng.choice([-1, 1]) * rng.randint(1, 4096)
                if which == "start":
                    start = start + delta if start + delta >= 0 else start + abs(delta)
                elif which == "end":
                    end = end + delta if end + delta >= start else end + abs(delta)
                else:
                    total = str(max(end + 1, int(total) + abs(delta)))
                line = f"Content-Range: {unit} {start}-{end}/{total}"
            out.append(line)
        # The head ends with two empty strings (the blank line); put Connection before them.
        while out and out[-1] == "":
            out.pop()
        out += ["Connection: close", "", ""]
        return "\r\n".join(out).encode("latin-1")
