//! A browser for HTTP tests: keeps cookies (checking each is HttpOnly and
//! SameSite=Strict), never follows redirects, reads forms' hidden fields.

use std::collections::HashMap;

use pitbook::domain::staff::Role;

use super::TestApp;

/// A browser: keeps cookies, never follows redirects.
pub struct Browser {
    /// The server, `http://host:port`.
    pub address: String,
    /// A client that never follows redirects.
    pub client: reqwest::Client,
    /// The cookies set so far, by name.
    pub cookies: HashMap<String, String>,
}

/// A response as a browser sees it.
pub struct Page {
    /// The HTTP status.
    pub status: u16,
    /// The `Location` header (empty when there is none).
    pub location: String,
    /// The body as text.
    pub body: String,
}

impl Browser {
    /// A browser with no cookies yet on the test server `app`.
    pub fn new(app: &TestApp) -> Browser {
        Browser::at(&app.address)
    }

    /// A browser with no cookies yet on any server (`http://host:port`).
    pub fn at(address: &str) -> Browser {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        Browser {
            address: address.to_string(),
            client,
            cookies: HashMap::new(),
        }
    }

    /// The `Cookie` header the browser sends.
    pub fn cookie_header(&self) -> String {
        let pairs: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        pairs.join("; ")
    }

    /// Reads a response: keeps (or, for `Max-Age=0`, drops) each cookie it
    /// sets, checking each is HttpOnly, SameSite=Strict and `Path=/`.
    pub async fn read(&mut self, response: reqwest::Response) -> Page {
        for value in response.headers().get_all("set-cookie") {
            let text = value.to_str().expect("ascii cookie");
            assert!(
                text.contains("HttpOnly") && text.contains("SameSite=Strict"),
                "{text}"
            );
            assert!(text.contains("Path=/"), "{text}");
            let (pair, _) = text.split_once(';').expect("attributes");
            let (name, val) = pair.split_once('=').expect("name=value");
            if text.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), val.to_string());
            }
        }
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get("location")
            .map(|v| v.to_str().expect("location").to_string())
            .unwrap_or_default();
        let body = response.text().await.expect("body");
        Page {
            status,
            location,
            body,
        }
    }

    /// GETs `path` with the browser's cookies.
    pub async fn get(&mut self, path: &str) -> Page {
        let r = self
            .client
            .get(format!("{}{path}", self.address))
            .header("cookie", self.cookie_header())
            .send()
            .await
            .expect("get");
        self.read(r).await
    }

    /// POSTs `form` (urlencoded) to `path` with the browser's cookies.
    pub async fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Page {
        let body: Vec<String> = form
            .iter()
            .map(|(k, v)| format!("{k}={}", urlencode(v)))
            .collect();
        let r = self
            .client
            .post(format!("{}{path}", self.address))
            .header("cookie", self.cookie_header())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body.join("&"))
            .send()
            .await
            .expect("post");
        self.read(r).await
    }

    /// GETs a page with a form and returns its CSRF token.
    pub async fn csrf(&mut self, path: &str) -> String {
        let page = self.get(path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        csrf_of(&page.body)
    }

    /// Signs in through the login form; returns the POST's response.
    pub async fn login(&mut self, username: &str, password: &str) -> Page {
        let csrf = self.csrf("/login").await;
        self.post(
            "/login",
            &[
                ("csrf", &csrf),
                ("username", username),
                ("password", password),
            ],
        )
        .await
    }
}

/// `application/x-www-form-urlencoded` text for a form value.
pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The value of the page's first `csrf` field (64 characters).
pub fn csrf_of(html: &str) -> String {
    let start = html.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    html[start..start + 64].to_string()
}

/// The value of the first `<input … name="NAME" value="…">` in `html`.
pub fn input_value(html: &str, name: &str) -> String {
    let needle = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&needle)
        .unwrap_or_else(|| panic!("no input {name} in the page"))
        + needle.len();
    let end = html[start..].find('"').expect("closing quote") + start;
    html[start..end].to_string()
}

/// What a reader sees of an HTML fragment: its tags dropped, the
/// entities askama escapes with (`&#39;`, `&#34;`, `&amp;`, `&lt;`,
/// `&gt;`, `&quot;`) read back, white space folded.
pub fn plain_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&#39;", "'")
        .replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The plain text of the element of id `id` in a page.
pub fn text_of(html: &str, id: &str) -> String {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in:\n{html}"));
    let open_end = html[start..].find('>').unwrap() + start + 1;
    let tag = html[..start].rfind('<').unwrap();
    let name: String = html[tag + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let close = html[open_end..].find(&format!("</{name}>")).unwrap() + open_end;
    plain_text(&html[open_end..close])
}

/// A page form's hidden fields (CSRF token, version, idempotency key) as
/// the page holds them, to post the form again or a copy of it.
pub fn hidden_fields(body: &str) -> Vec<(&'static str, String)> {
    ["csrf", "version", "idempotency_key"]
        .into_iter()
        .map(|name| (name, input_value(body, name)))
        .collect()
}

/// A new account of `role` (see [`TestApp::add_user`]), signed in.
pub async fn signed_in(app: &TestApp, name: &str, role: Role) -> Browser {
    let (username, password) = app.add_user(name, role).await;
    let mut b = Browser::new(app);
    let page = b.login(&username, &password).await;
    assert_eq!(page.status, 303, "login {name}: {}", page.body);
    b
}
