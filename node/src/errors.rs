//! Library errors as JavaScript errors: the message the library words and
//! the code of `goccia::Error::code`. The code travels at the head of the
//! native error's message (`[ENOENT] /a.txt: No such file or directory`);
//! the JavaScript half (`errors.cjs`) strips it into `error.code` and picks
//! the `Error` subclass, so no caller ever sees the bracket.

/// `error` as a JavaScript error with its code.
pub fn to_js(error: impl Into<goccia::Error>) -> napi::Error {
    let error = error.into();
    let message = match &error {
        // A spec error names the setting as JSON (and Node's options) spell it.
        goccia::Error::Setup(setup) => setup.spelled(goccia::Spelling::Json),
        other => other.to_string(),
    };
    coded(error.code(), message)
}

/// An error of the binding's own (a closed sandbox, a bad argument).
pub fn coded(code: &str, message: impl std::fmt::Display) -> napi::Error {
    napi::Error::new(napi::Status::GenericFailure, format!("[{code}] {message}"))
}

/// The error every call of a closed sandbox gets.
pub fn closed() -> napi::Error {
    coded(
        "ERR_GOCCIA_CLOSED",
        "the sandbox was closed; make a new one",
    )
}
