"""Drive `rootbound mcp --http` with the official MCP Python SDK's Streamable HTTP client.

Usage: python tests/mcp_http_client.py PATH/TO/rootbound EMPTY_TEMP_DIR

It builds the tree of tests/mcp_client.py, writes a one-token file (private to its owner), starts
`rootbound mcp --http 127.0.0.1:0` (the address read back from its stderr) and runs the same checks
as over stdio (every read tool, paging, escapes) with `Authorization: Bearer TOKEN`; then checks
that a wrong token gets no session. The server is killed at the end. Prints "HTTP OK" on success.
"""

import asyncio
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402
from mcp_client import Checker, check, field, make_tree  # noqa: E402

TOKEN = "tok-python-0123456789abcdef"


def start(binary, root, tokens):
    proc = subprocess.Popen(
        [binary, "mcp", "--root", root, "--deny", ".env", "--http", "127.0.0.1:0",
         "--http-token-file", tokens],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    for line in proc.stderr:
        if "serving MCP over HTTP at " in line:
            url = line.split(" at ", 1)[1].split()[0]
            # Keep reading stderr so the server never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
            return proc, url
    raise AssertionError(f"the server announced no address (exit {proc.wait()})")


async def with_session(url, token, run):
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                init = await session.initialize()
                info = field(init, "server_info", "serverInfo")
                check(info.name == "rootbound", f"server name {info.name}")
                await run(session)
                return field(init, "protocol_version", "protocolVersion")


async def main():
    binary, tmp = sys.argv[1], sys.argv[2]
    root, outside, lib, big = make_tree(tmp)
    tokens = os.path.join(tmp, "tokens")
    with open(os.open(tokens, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(TOKEN + "\n")
    proc, url = start(binary, root, tokens)
    try:
        async def checks(session):
            await Checker(session.call_tool, session.list_tools, root, outside, lib, big).run()

        version = await asyncio.wait_for(with_session(url, TOKEN, checks), 240)
        print(f"streamable HTTP session OK (protocol {version})")

        async def nothing(_session):
            raise AssertionError("a wrong token got a session")

        try:
            await asyncio.wait_for(with_session(url, "tok-wrong-0123456789abcdef", nothing), 60)
            refused = False
        except (AssertionError, asyncio.TimeoutError, TimeoutError):
            raise
        except BaseException:  # the SDK reports the 401 as an error (a group, in some versions)
            refused = True
        check(refused, "a wrong token was not refused")
        check(proc.poll() is None, "the server exited")
        print("wrong token refused")
    finally:
        proc.kill()
        proc.wait()
    print("HTTP OK")


if __name__ == "__main__":
    asyncio.run(main())
