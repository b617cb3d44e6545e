//! Installing the guest's globals: runs `js/inspect.js` + `js/globals.js`
//! once per context with the host functions they need, and keeps the
//! internals they return out of the guest's reach.
//!
//! The globals can be installed before the run they serve is known (a
//! spare context prepared between runs: docs/calls.md, "Where a call
//! runs"): their host functions reach the run's [`Host`] through a
//! [`HostSlot`] that is filled once, before any guest code runs.

use std::cell::OnceCell;
use std::rc::Rc;

use goccia_core::Stream;
use rquickjs::{Array, Ctx, Function, Object, Result, TypedArray, Value};

use crate::errors::{throw_stopped, type_error};
use crate::host::{Host, Internals};

/// The run a context's globals serve, filled in once ([`HostSlot::fill`])
/// before any guest code runs. Shared by the host functions the prelude
/// installs.
#[derive(Clone, Default)]
pub struct HostSlot(Rc<OnceCell<Rc<Host>>>);

impl HostSlot {
    /// Gives the globals their run: stores `host` for the host functions and
    /// for module definitions (`host_of`). A slot is filled once; a second
    /// run can never reach a context made for the first.
    pub fn fill(&self, ctx: &Ctx<'_>, host: Rc<Host>) -> Result<()> {
        ctx.store_userdata(crate::HostRef(host.clone()))
            .map_err(|_| rquickjs::Error::new_from_js("host", "userdata"))?;
        self.0
            .set(host)
            .map_err(|_| rquickjs::Error::new_from_js("host", "a context serves one run"))
    }

    /// The run's host. Guest code runs only after [`HostSlot::fill`], and
    /// these functions are reachable only from guest code.
    fn get(&self) -> &Rc<Host> {
        self.0
            .get()
            .expect("a context's host is filled in before any guest code runs")
    }
}

/// Installs the globals, their host to come: the prelude's internals are
/// kept in the context, and the returned slot is filled with the run's host
/// before any guest code runs.
pub fn install_unbound(ctx: &Ctx<'_>) -> Result<HostSlot> {
    let slot = HostSlot::default();
    let natives = natives(ctx, &slot)?;
    let prelude = Function::from_value(crate::precompiled::prelude(ctx)?)?;
    let internals: Object = prelude.call((natives,))?;
    ctx.store_userdata(Internals(internals))
        .map_err(|_| rquickjs::Error::new_from_js("internals", "userdata"))?;
    Ok(slot)
}

fn natives<'js>(ctx: &Ctx<'js>, slot: &HostSlot) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    let host = slot.clone();
    object.set(
        "write",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, fd: i32, text: String| -> Result<()> {
                let h = host.get();
                h.check().map_err(|stopped| throw_stopped(&ctx, stopped))?;
                let stream = if fd == 2 {
                    Stream::Stderr
                } else {
                    Stream::Stdout
                };
                h.output
                    .write(stream, text.as_bytes())
                    .map_err(|stop| throw_stopped(&ctx, h.stopped(stop)))
            },
        )?,
    )?;
    object.set(
        "encodeUtf8",
        Function::new(ctx.clone(), |ctx: Ctx<'js>, text: String| {
            TypedArray::<u8>::new_copy(ctx, text.as_bytes())
        })?,
    )?;
    object.set(
        "decodeUtf8",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, bytes: TypedArray<'js, u8>, fatal: bool| -> Result<String> {
                // SAFETY: decoded before any JS can run and detach the buffer.
                let data = unsafe { bytes.as_bytes() }.unwrap_or(&[]);
                match std::str::from_utf8(data) {
                    Ok(text) => Ok(text.to_string()),
                    Err(_) if fatal => Err(type_error(
                        &ctx,
                        "ERR_ENCODING_INVALID_ENCODED_DATA",
                        "The encoded data was not valid for encoding utf-8",
                    )),
                    Err(_) => Ok(String::from_utf8_lossy(data).into_owned()),
                }
            },
        )?,
    )?;
    object.set(
        "urlParse",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, input: String, base: Value<'js>| -> Result<Option<Array<'js>>> {
                let base = match base.as_string() {
                    Some(text) => match url::Url::parse(&text.to_string()?) {
                        Ok(base) => Some(base),
                        Err(_) => return Ok(None),
                    },
                    None => None,
                };
                match url::Url::options().base_url(base.as_ref()).parse(&input) {
                    Ok(url) => url_parts(&ctx, &url).map(Some),
                    Err(_) => Ok(None),
                }
            },
        )?,
    )?;
    object.set(
        "urlSet",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             href: String,
             field: String,
             value: String|
             -> Result<Option<Array<'js>>> {
                let Ok(mut url) = url::Url::parse(&href) else {
                    return Ok(None);
                };
                let ok = match field.as_str() {
                    "href" => url::quirks::set_href(&mut url, &value).is_ok(),
                    "protocol" => url::quirks::set_protocol(&mut url, &value).is_ok(),
                    "username" => url::quirks::set_username(&mut url, &value).is_ok(),
                    "password" => url::quirks::set_password(&mut url, &value).is_ok(),
                    "host" => url::quirks::set_host(&mut url, &value).is_ok(),
                    "hostname" => url::quirks::set_hostname(&mut url, &value).is_ok(),
                    "port" => url::quirks::set_port(&mut url, &value).is_ok(),
                    "pathname" => {
                        url::quirks::set_pathname(&mut url, &value);
                        true
                    }
                    "search" => {
                        url::quirks::set_search(&mut url, &value);
                        true
                    }
                    "hash" => {
                        url::quirks::set_hash(&mut url, &value);
                        true
                    }
                    _ => false,
                };
                if ok {
                    url_parts(&ctx, &url).map(Some)
                } else {
                    Ok(None)
                }
            },
        )?,
    )?;
    object.set(
        "loadFactory",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, name: String| -> Result<Value<'js>> {
                match crate::precompiled::factory(&ctx, &name) {
                    Some(factory) => factory,
                    None => Ok(Value::new_null(ctx)),
                }
            },
        )?,
    )?;
    let host = slot.clone();
    object.set(
        "moduleNatives",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> Result<Object<'js>> {
            let natives_host = host.get();
            let natives = Object::new(ctx.clone())?;
            natives.set("fs", crate::fs::natives(&ctx, natives_host.clone())?)?;
            natives.set(
                "goccia",
                crate::goccia::natives(&ctx, natives_host.clone())?,
            )?;
            natives.set(
                "policy",
                crate::escalation::natives(&ctx, natives_host.clone())?,
            )?;
            natives.set("node", crate::node::natives(&ctx, natives_host.clone())?)?;
            Ok(natives)
        })?,
    )?;
    let host = slot.clone();
    object.set(
        "compileCommonJs",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, source: String, filename: String| -> Result<Value<'js>> {
                host.get()
                    .check()
                    .map_err(|stop| throw_stopped(&ctx, stop))?;
                crate::node::compile(&ctx, &source, &filename)
            },
        )?,
    )?;
    let host = slot.clone();
    object.set(
        "fetch",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, href: String, init: Object<'js>| {
                fetch(&ctx, host.get(), href, &init)
            },
        )?,
    )?;
    Ok(object)
}

/// `native.fetch(href, {method, headers: [[name, value]], body})`: the
/// response as `{status, statusText, url, redirected, headers, body}`.
fn fetch<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    href: String,
    init: &Object<'js>,
) -> Result<Object<'js>> {
    host.check()
        .map_err(|stopped| throw_stopped(ctx, stopped))?;
    let url = url::Url::parse(&href).map_err(|error| {
        type_error(
            ctx,
            "ERR_INVALID_URL",
            &format!("fetch: invalid URL `{href}`: {error}"),
        )
    })?;
    let method = init
        .get::<_, Option<String>>("method")?
        .unwrap_or_else(|| "GET".to_string())
        .to_ascii_uppercase();
    let mut headers = Vec::new();
    if let Some(list) = init.get::<_, Option<Array>>("headers")? {
        for pair in list.iter::<Array>() {
            let pair = pair?;
            headers.push((pair.get::<String>(0)?, pair.get::<String>(1)?));
        }
    }
    let body = match init.get::<_, Value>("body")? {
        value if value.is_null() || value.is_undefined() => None,
        value => Some(crate::fs::bytes_of(&value, "utf8")?),
    };
    let request = crate::fetch::FetchRequest {
        method,
        url,
        headers,
        body,
        follow_redirects: true,
        keep_method: false,
    };
    let context = crate::fetch::FetchContext {
        policy: &host.network,
        audit: &host.audit,
        watch: &host.watch,
        advice: &host.advice,
    };
    let fetched = match &host.relay.0 {
        Some(relay) => relay.fetch(request, &host.watch),
        None => crate::fetch::fetch(&context, request),
    };
    let response = match fetched {
        Ok(response) => response,
        Err(crate::fetch::FetchError::Stopped(stop)) => {
            return Err(throw_stopped(ctx, host.stopped(stop)));
        }
        Err(error @ crate::fetch::FetchError::Refused(_)) => {
            return Err(type_error(
                ctx,
                "ERR_GOCCIA_FETCH_REFUSED",
                &error.to_string(),
            ));
        }
        Err(error) => {
            return Err(type_error(
                ctx,
                "ERR_GOCCIA_FETCH_FAILED",
                &error.to_string(),
            ));
        }
    };
    let result = Object::new(ctx.clone())?;
    result.set("status", response.status)?;
    result.set("statusText", response.status_text)?;
    result.set("url", response.url)?;
    result.set("redirected", response.redirected)?;
    let headers = Array::new(ctx.clone())?;
    for (index, (name, value)) in response.headers.into_iter().enumerate() {
        let pair = Array::new(ctx.clone())?;
        pair.set(0, name)?;
        pair.set(1, value)?;
        headers.set(index, pair)?;
    }
    result.set("headers", headers)?;
    result.set(
        "body",
        TypedArray::<u8>::new_copy(ctx.clone(), &response.body[..])?,
    )?;
    Ok(result)
}

fn url_parts<'js>(ctx: &Ctx<'js>, url: &url::Url) -> Result<Array<'js>> {
    use url::quirks;
    let parts = [
        quirks::href(url).to_string(),
        quirks::protocol(url).to_string(),
        quirks::username(url).to_string(),
        quirks::password(url).to_string(),
        quirks::host(url).to_string(),
        quirks::hostname(url).to_string(),
        quirks::port(url).to_string(),
        quirks::pathname(url).to_string(),
        quirks::search(url).to_string(),
        quirks::hash(url).to_string(),
        quirks::origin(url),
    ];
    let array = Array::new(ctx.clone())?;
    for (index, part) in parts.into_iter().enumerate() {
        array.set(index, part)?;
    }
    Ok(array)
}
