//! Who a request comes from: the peer's address, or the one a trusted
//! proxy names in `X-Forwarded-For`; and what each client address holds at
//! once (connections, heavy requests), so that one address cannot take
//! what all share.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;

/// Where a request comes from, as the per-client limits and the access log
/// see it. Every request the server's connections pass on carries one
/// (a request extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The client's address: the peer's, or behind a trusted proxy the
    /// last address of `X-Forwarded-For` that is not a trusted proxy.
    pub addr: IpAddr,
    /// The connection's peer.
    pub peer: SocketAddr,
}

impl Client {
    /// The client of a request from `peer` with `headers`: the peer
    /// itself, unless the peer is one of `trusted` and `X-Forwarded-For`
    /// names another address. The header is read from its end (the address
    /// the nearest proxy saw) past the trusted proxies; an entry that is
    /// not an address stops the walk at the address before it.
    ///
    /// `X-Forwarded-For: 198.51.100.7, 10.0.0.2` from trusted 10.0.0.1,
    /// with 10.0.0.2 also trusted: the client is 198.51.100.7. From an
    /// untrusted peer the header is ignored: anyone can write it.
    pub fn resolve(peer: SocketAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> Client {
        let mut addr = canonical(peer.ip());
        if trusted.iter().any(|t| canonical(*t) == addr) {
            // Each header's entries in order, the headers in order: the
            // last entry is the one the nearest proxy added.
            let entries: Vec<&[u8]> = headers
                .get_all("x-forwarded-for")
                .iter()
                .flat_map(|v| v.as_bytes().split(|&b| b == b','))
                .collect();
            for e in entries.into_iter().rev() {
                let Some(ip) = std::str::from_utf8(e)
                    .ok()
                    .and_then(|s| s.trim().parse::<IpAddr>().ok())
                else {
                    break;
                };
                addr = canonical(ip);
                if !trusted.iter().any(|t| canonical(*t) == addr) {
                    break;
                }
            }
        }
        Client { addr, peer }
    }

    /// Whether the request came through a trusted proxy naming another
    /// client.
    pub fn via_proxy(&self) -> bool {
        self.addr != canonical(self.peer.ip())
    }
}

/// An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is the IPv4 one.
pub(crate) fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// The unit the per-client limits count by: an IPv4 address, or an IPv6
/// /64 (one subscriber's network: a host there can take any of its 2^64
/// addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key(IpAddr);

impl Key {
    pub(crate) fn of(ip: IpAddr) -> Key {
        Key(match canonical(ip) {
            IpAddr::V6(v6) => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
            v4 => v4,
        })
    }
}

#[derive(Default, Debug)]
struct Held {
    connections: usize,
    heavy: usize,
    /// Searches whose cost is being worked out.
    estimating: usize,
}

impl Held {
    fn is_empty(&self) -> bool {
        self.connections == 0 && self.heavy == 0 && self.estimating == 0
    }
}

/// What each client address holds now. Entries go when they fall to
/// nothing, so the map is as big as the set of clients connected.
#[derive(Default, Debug)]
pub(crate) struct Clients {
    held: Mutex<HashMap<Key, Held>>,
}

/// What a guard gives back when dropped.
#[derive(Clone, Copy, Debug)]
enum What {
    Connection,
    Heavy(usize),
    Estimate,
}

/// One connection or some heavy weight held by a client; given back when
/// dropped.
#[derive(Debug)]
pub(crate) struct Slot {
    clients: Arc<Clients>,
    key: Key,
    what: What,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.clients.lock();
        if let Some(h) = held.get_mut(&self.key) {
            match self.what {
                What::Connection => h.connections -= 1,
                What::Heavy(w) => h.heavy -= w,
                What::Estimate => h.estimating -= 1,
            }
            if h.is_empty() {
                held.remove(&self.key);
            }
        }
    }
}

impl Clients {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Held>> {
        // Nothing panics while holding it; a poisoned map is still whole.
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One more connection for `key`, if it holds fewer than `max`.
    pub(crate) fn connect(self: &Arc<Self>, key: Key, max: usize) -> Option<Slot> {
        let mut held = self.lock();
        let h = held.entry(key).or_default();
        if h.connections >= max {
            if h.is_empty() {
                held.remove(&key);
            }
            return None;
        }
        h.connections += 1;
        Some(Slot {
            clients: self.clone(),
            key,
            what: What::Connection,
        })
    }

    /// `weight` more heavy weight for `key`, if its heavy requests in
    /// flight stay within `max`. A weight above `max` counts as `max`: a
    /// client with nothing heavy in flight is always let in.
    pub(crate) fn heavy(self: &Arc<Self>, key: Key, weight: usize, max: usize) -> Option<Slot> {
        let weight = weight.clamp(1, max.max(1));
        let mut held = self.lock();
        let h = held.entry(key).or_default();
        if h.heavy + weight > max {
            if h.is_empty() {
                held.remove(&key);
            }
            return None;
        }
        h.heavy += weight;
        Some(Slot {
            clients: self.clone(),
            key,
            what: What::Heavy(weight),
        })
    }

    /// One more search being estimated for `key`, if it has fewer than
    /// `max` (the estimate is work too, done before anything says whether
    /// the search is heavy).
    pub(crate) fn estimate(self: &Arc<Self>, key: Key, max: usize) -> Option<Slot> {
        let mut held = self.lock();
        let h = held.entry(key).or_default();
        if h.estimating >= max.max(1) {
            return None;
        }
        h.estimating += 1;
        Some(Slot {
            clients: self.clone(),
            key,
            what: What::Estimate,
        })
    }

    /// Whether `key` has heavy work in flight or a search being
    /// estimated on the estimate threads.
    pub(crate) fn holds_work(&self, key: Key) -> bool {
        self.lock()
            .get(&key)
            .is_some_and(|h| h.heavy > 0 || h.estimating > 0)
    }

    /// How many addresses hold something (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn resolve(peer: &str, xff: &[&str], trusted: &[&str]) -> IpAddr {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
        }
        let trusted: Vec<IpAddr> = trusted.iter().map(|t| ip(t)).collect();
        Client::resolve(SocketAddr::new(ip(peer), 5000), &h, &trusted).addr
    }

    #[test]
    fn forwarded_for_is_read_only_from_trusted_peers() {
        // Untrusted peer: the header is anyone's to write.
        assert_eq!(
            resolve("10.0.0.9", &["1.2.3.4"], &["10.0.0.1"]),
            ip("10.0.0.9")
        );
        assert_eq!(resolve("10.0.0.9", &["1.2.3.4"], &[]), ip("10.0.0.9"));
        // Trusted: the last entry, past other trusted proxies.
        assert_eq!(
            resolve("10.0.0.1", &["1.2.3.4"], &["10.0.0.1"]),
            ip("1.2.3.4")
        );
        assert_eq!(
            resolve("10.0.0.1", &["6.6.6.6, 1.2.3.4"], &["10.0.0.1"]),
            ip("1.2.3.4")
        );
        assert_eq!(
            resolve(
                "10.0.0.1",
                &["6.6.6.6, 1.2.3.4, 10.0.0.2"],
                &["10.0.0.1", "10.0.0.2"]
            ),
            ip("1.2.3.4")
        );
        // Several headers read as one list, in order.
        assert_eq!(
            resolve("10.0.0.1", &["6.6.6.6", "1.2.3.4"], &["10.0.0.1"]),
            ip("1.2.3.4")
        );
        // No header, or a garbled last entry: the proxy itself, or the
        // address before the garbage's trusted run.
        assert_eq!(resolve("10.0.0.1", &[], &["10.0.0.1"]), ip("10.0.0.1"));
        assert_eq!(
            resolve("10.0.0.1", &["1.2.3.4, junk"], &["10.0.0.1"]),
            ip("10.0.0.1")
        );
        assert_eq!(
            resolve(
                "10.0.0.1",
                &["junk, 1.2.3.4, 10.0.0.2"],
                &["10.0.0.1", "10.0.0.2"]
            ),
            ip("1.2.3.4")
        );
        assert_eq!(
            resolve("10.0.0.1", &[" 2001:db8::7 "], &["10.0.0.1"]),
            ip("2001:db8::7")
        );
        // IPv4 written as IPv6, on either side.
        assert_eq!(
            resolve("::ffff:10.0.0.1", &["1.2.3.4"], &["10.0.0.1"]),
            ip("1.2.3.4")
        );
        assert_eq!(resolve("::ffff:10.0.0.9", &[], &[]), ip("10.0.0.9"));
    }

    #[test]
    fn keys_group_an_ipv6_64() {
        assert_eq!(
            Key::of(ip("2001:db8:1:2:aaaa::1")),
            Key::of(ip("2001:db8:1:2::ffff"))
        );
        assert_ne!(
            Key::of(ip("2001:db8:1:2::1")),
            Key::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(Key::of(ip("::ffff:1.2.3.4")), Key::of(ip("1.2.3.4")));
        assert_ne!(Key::of(ip("1.2.3.4")), Key::of(ip("1.2.3.5")));
    }

    #[test]
    fn slots_are_counted_per_address_and_given_back() {
        let c = Arc::new(Clients::default());
        let (a, b) = (Key::of(ip("1.1.1.1")), Key::of(ip("2.2.2.2")));
        let a1 = c.connect(a, 2).unwrap();
        let a2 = c.connect(a, 2).unwrap();
        assert!(c.connect(a, 2).is_none());
        let b1 = c.connect(b, 2).unwrap();
        drop(a1);
        let a3 = c.connect(a, 2).unwrap();
        // Heavy weight is counted apart from connections.
        let h1 = c.heavy(a, 1, 2).unwrap();
        assert!(c.heavy(a, 2, 2).is_none());
        let h2 = c.heavy(a, 1, 2).unwrap();
        assert!(c.heavy(a, 1, 2).is_none());
        assert!(
            c.heavy(b, 5, 2).is_some(),
            "a weight above the cap alone is let in"
        );
        drop((h1, h2));
        let h3 = c.heavy(a, 7, 2).unwrap();
        assert!(c.heavy(a, 1, 2).is_none());
        // Estimates too, apart from both.
        let e1 = c.estimate(a, 2).unwrap();
        let e2 = c.estimate(a, 2).unwrap();
        assert!(c.estimate(a, 2).is_none());
        let e3 = c.estimate(b, 2).unwrap();
        drop(e1);
        let e4 = c.estimate(a, 2).unwrap();
        drop((a2, a3, b1, h3, e2, e3, e4));
        assert_eq!(c.len(), 0, "nothing held, nothing kept");
        assert!(c.connect(a, 0).is_none());
        assert_eq!(c.len(), 0);
    }
}
