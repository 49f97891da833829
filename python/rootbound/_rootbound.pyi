"""Type stubs of the native module (PyO3). Use the ``rootbound`` package, not this module."""

from typing import Any, List, Mapping, Optional, Tuple, Union

__version__: str

class NativeError(Exception): ...
class UsageError(Exception): ...

class Budget:
    """A deadline plus a cancel switch, shared by every call made with it: pull it from any thread.

    ``Budget(timeout=2.0)`` ends the calls made with it within 2 s (the policy's timeout still
    applies). ``cancel()`` stops them at their next check: a search returns the page found so far
    (``timed_out=True``, a cursor that resumes); a call started after the cancel raises
    ``rootbound.Cancelled``. KeyboardInterrupt during a call cancels its budget.
    """

    def __init__(self, timeout: Optional[float] = None) -> None: ...
    def cancel(self) -> None:
        """Cancels every call running or yet to run with this budget. Idempotent."""
    @property
    def cancelled(self) -> bool:
        """Whether ``cancel()`` was called."""
    def progress(self) -> Tuple[int, int]:
        """(files, bytes) searched so far by the calls made with this budget."""

class Core:
    @staticmethod
    def from_options(options_json: str, agent: Optional[str] = None) -> Core: ...
    @staticmethod
    def from_config(path: str, agent: Optional[str] = None) -> Core: ...
    def call(
        self,
        name: str,
        args: Union[str, Mapping[str, Any]],
        budget: Optional[Budget] = None,
        profile: Optional[str] = None,
        watch: bool = False,
        engine: bool = False,
    ) -> Tuple[bool, Any]: ...
    def tools(self, format: str = "openai", profile: Optional[str] = None) -> str: ...
    @property
    def agent(self) -> str: ...
    @property
    def profile(self) -> str: ...
    def tool_names(self) -> List[str]: ...

def limit_names() -> List[str]: ...
def default_limits() -> str: ...
def error_codes() -> List[str]: ...
def profile_names() -> List[str]: ...
def _bench_rust_calls(core: Core, name: str, args_json: str, n: int) -> List[float]: ...
