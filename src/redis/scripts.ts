/**
 * The Lua scripts behind `createRedisFleet`, atomic and on Redis's clock (`TIME`). A restarted Redis may have lost
 * leases and slots, so (from `INFO server`) newcomers get a lane only from a hash this Redis process wrote (`run`)
 * or after uptime ttl + rest, and slots only after uptime min(window, ttl), by when members still signing have
 * handed theirs back (RESTORE_SLOTS; meanwhile fallback.ts). See docs/fleet.md, "Redis restarts" and "Outages".
 */
import { createHash } from 'node:crypto';

/** A script's source and its SHA1 (for EVALSHA). */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

function script(body: string): LuaScript {
  const source = `${PRELUDE}\n${body}`;
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function server_info()
  local info = redis.call('INFO', 'server')
  -- uptime_in_seconds (two truncated whole-second readings) may overstate by up to a second: one less never does.
  local uptime = (tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) - 1) * 1000
  if uptime < 0 then uptime = 0 end
  return string.match(info, 'run_id:(%w+)'), uptime
end
local function parse_lane(value)
  if not value then return nil, nil end
  local holder, lease_until = string.match(value, '^(.*) (%d+)$')
  return holder, tonumber(lease_until)
end
-- How many of the key's lanes are held now (the members a static share is divided by).
local function held(key, count, now)
  local n = 0
  for i = 0, count - 1 do
    local _, lease_until = parse_lane(redis.call('HGET', key, 'lane:' .. i))
    if lease_until and lease_until > now then n = n + 1 end
  end
  return n
end
`;

// Lane hash (KEYS[1]): `config` = "count:ttl:rest"; `run` = the `run_id` that wrote it; `lane:<i>` = "<member>
// <leaseUntil>". A lane is held while now < leaseUntil, rests `rest` more (docs/fleet.md), then is free. The hash
// expires `ttl + rest` after its last write.

/**
 * Leases the lowest free lane. ARGV: member, count, ttl, rest, config. Returns {index, leaseMs, lanesHeld} |
 * {-1, existingConfig} | {-2, waitMs (Redis restarted)} | {-3, waitMs (all lanes held or resting)}.
 */
export const ACQUIRE_LANE = script(`
local key = KEYS[1]
local member, count, ttl, rest, config = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local existing = redis.call('HGET', key, 'config')
if existing and existing ~= config then return {-1, existing} end
local now = now_ms()
local run, uptime = server_info()
if redis.call('HGET', key, 'run') ~= run then
  if uptime < ttl + rest then return {-2, ttl + rest - uptime} end
  redis.call('HSET', key, 'run', run)
end
local soonest = -1
for i = 0, count - 1 do
  local holder, lease_until = parse_lane(redis.call('HGET', key, 'lane:' .. i))
  -- A member may take back its own lane even while it rests: its own client never reuses its own timestamps.
  if holder == nil or holder == member or now >= lease_until + rest then
    redis.call('HSET', key, 'lane:' .. i, member .. ' ' .. (now + ttl), 'config', config)
    redis.call('PEXPIRE', key, ttl + rest)
    return {i, ttl, held(key, count, now)}
  end
  local wait = lease_until + rest - now
  if soonest < 0 or wait < soonest then soonest = wait end
end
return {-3, soonest}
`);

/**
 * Renews this member's lease on lane ARGV[2]. ARGV: member, index, ttl, rest, config, alive ("1": the member's own
 * deadline has not passed). Returns {index, leaseMs, lanesHeld, restored (1: record was missing; with `alive` no
 * one else can hold the lane, so the holder takes it back)} | {-4, 0} (another member holds it: stop at once) |
 * {-5, 0} (no record, not alive: lease afresh) | {-1, existingConfig}.
 */
export const RENEW_LANE = script(`
local key = KEYS[1]
local member, index, ttl, rest, config, alive = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], ARGV[6]
local existing = redis.call('HGET', key, 'config')
if existing and existing ~= config then return {-1, existing} end
local holder = parse_lane(redis.call('HGET', key, 'lane:' .. index))
if holder == nil and alive ~= '1' then return {-5, 0} end
if holder ~= nil and holder ~= member then return {-4, 0} end
local now = now_ms()
redis.call('HSET', key, 'lane:' .. index, member .. ' ' .. (now + ttl), 'config', config)
redis.call('PEXPIRE', key, ttl + rest)
local restored = 0
if holder == nil then restored = 1 end
return {tonumber(index), ttl, held(key, tonumber(string.match(config, '^(%d+)')), now), restored}
`);

/**
 * Ends this member's lease on lane ARGV[2] now; the lane then rests like an expired one. ARGV: member, index,
 * ttl, rest. Returns 1 when released, 0 when the member did not hold it.
 */
export const RELEASE_LANE = script(`
local key = KEYS[1]
local member, index, ttl, rest = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local holder, lease_until = parse_lane(redis.call('HGET', key, 'lane:' .. index))
if holder ~= member then return 0 end
local now = now_ms()
if lease_until > now then lease_until = now end
redis.call('HSET', key, 'lane:' .. index, member .. ' ' .. lease_until)
redis.call('PEXPIRE', key, ttl + rest)
return 1
`);

// A bucket's slots: sorted set `flight` (unsettled tickets by take time, kept up to two windows in case their
// member died) and `counted` (by settle time). A ticket is "<windowMs>:<redisNow>:<seq>": unique even if `seq` was
// lost, and carrying its window for `settle`.

/**
 * Takes one slot. KEYS: counted, flight, pause, seq. ARGV: limit (-1: only pauses apply), windowMs, leaseTtlMs.
 * Returns {1, ticket, 0, used, clearMs} | {0, retryInMs, paused (1: a 429's pause), used, clearMs} | {-1, msToGo}
 * (Redis up less than min(window, lease): use the static share). `used`: slots held now; `clearMs`: until all left
 * the window (in-flight ones as if settled within a second); what a member falls back on without Redis.
 */
export const TAKE_SLOT = script(`
local counted, flight, pause, seq = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local limit, window, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
local paused_until = tonumber(redis.call('GET', pause) or '0')
if paused_until > now then return {0, paused_until - now, 1} end
if limit < 0 then return {1, 'unlimited', 0} end
local _, uptime = server_info()
if uptime < math.min(window, ttl) then return {-1, math.min(window, ttl) - uptime} end
redis.call('ZREMRANGEBYSCORE', counted, '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', flight, '-inf', now - 2 * window)
local n_counted = redis.call('ZCARD', counted)
local n_flight = redis.call('ZCARD', flight)
local used = n_counted + n_flight
local function clear_ms(extra)
  local last = redis.call('ZRANGE', counted, -1, -1, 'WITHSCORES')
  local clear = 0
  if last[2] then clear = tonumber(last[2]) + window - now end
  if n_flight + extra > 0 and clear < window + 1000 then clear = window + 1000 end
  return clear
end
if used < limit then
  local n = redis.call('INCR', seq)
  redis.call('PEXPIRE', seq, 2 * window)
  local ticket = window .. ':' .. now .. ':' .. n
  redis.call('ZADD', flight, now, ticket)
  if redis.call('PTTL', flight) < 2 * window then redis.call('PEXPIRE', flight, 2 * window) end
  return {1, ticket, 0, used + 1, clear_ms(1)}
end
-- used - limit + 1 counted slots must leave the window; the youngest of them is counted[used - limit].
local k = used - limit
if k < n_counted then
  local entry = redis.call('ZRANGE', counted, k, k, 'WITHSCORES')
  local wait = tonumber(entry[2]) + window - now
  if wait < 1 then wait = 1 end
  return {0, wait, 0, used, clear_ms(0)}
end
-- Only settles (of any member) can free a slot: ask again shortly.
return {0, math.min(window, 100), 0, used, clear_ms(0)}
`);

/**
 * Settles a ticket. KEYS: counted, flight. ARGV: ticket, settlement ('counted': into `counted` at Redis now, also
 * when its in-flight record is gone, as the server counted it no earlier; 'refunded' drops it). Returns {1}.
 */
export const SETTLE_SLOT = script(`
local counted, flight, ticket, settlement = KEYS[1], KEYS[2], ARGV[1], ARGV[2]
local window = tonumber(string.match(ticket, '^(%d+):'))
if not window then return {0} end
redis.call('ZREM', flight, ticket)
if settlement == 'refunded' then
  redis.call('ZREM', counted, ticket)
  return {1}
end
redis.call('ZADD', counted, now_ms(), ticket)
if redis.call('PTTL', counted) < window then redis.call('PEXPIRE', counted, window) end
return {1}
`);

/** Pauses a bucket: pausedUntil = max(existing, now + forMs). KEYS: pause. ARGV: forMs. Returns {pausedUntil}. */
export const PAUSE_BUCKET = script(`
local pause, for_ms = KEYS[1], tonumber(ARGV[1])
local now = now_ms()
local paused_until = now + for_ms
local existing = tonumber(redis.call('GET', pause) or '0')
if existing > paused_until then paused_until = existing end
if paused_until > now then redis.call('SET', pause, paused_until, 'PX', paused_until - now) end
return {paused_until}
`);

/**
 * A member hands back its slots of the last window to a Redis that lost them (restart) or may have missed them
 * (taken on the static share). KEYS: counted. ARGV: windowMs, then ticket, ageMs pairs. Returns 1.
 */
export const RESTORE_SLOTS = script(`
local counted, window = KEYS[1], tonumber(ARGV[1])
local now = now_ms()
for i = 2, #ARGV - 1, 2 do
  local at = now - tonumber(ARGV[i + 1])
  if at > now - window then redis.call('ZADD', counted, at, ARGV[i]) end
end
if redis.call('PTTL', counted) < window then redis.call('PEXPIRE', counted, window) end
return {1}
`);
