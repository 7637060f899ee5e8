//! How the examples end: success, or the error's message (its `Display`, not its `Debug`)
//! after `error:` on stderr and exit status 1.

use std::process::ExitCode;

/// The exit status for `result`, printing its error if there is one.
pub fn finish<E: std::fmt::Display>(result: Result<(), E>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
