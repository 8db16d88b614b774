// The meter's decisions as Redis scripts: each runs atomically, so instances never race
// between reading a counter and writing it. No shebang flags: Redis 7.0 rejects some.
//
// A period's counters count only once it is seeded: its `seeded` key holds the random
// generation SEED wrote when it rebuilt them from the ledger. While a period is unseeded (Redis
// lost its data, or never had it) no script writes a counter of it, so the next seed finds
// nothing it would have to trust and rebuilds every counter from the ledger.

// Counters of a seeded period all exist (the seed wrote them), but a past day's, which no
// longer decides anything: only existing counters move, so none appears without its expiry.
const ADJUST_FN = `
local function adjust(key, by)
  if by ~= 0 and redis.call('EXISTS', key) == 1 then redis.call('INCRBY', key, by) end
end
local function holdRebuild(hold, ms)
  if tonumber(ms) > 0 then redis.call('SET', hold, '1', 'PX', ms) end
end
`;

// Applies the settles of answers that decided nothing (no card allowance): releases each slot,
// adds each answer's cards, and works out how the credits move: under the answer's own
// generation its reservation is in the counters, so a refund gives it back; under a generation
// rebuilt since, it is not, so a served answer adds what it charged. In an unseeded period
// (`gen` false) nothing is counted (-1) and the rebuild is held back until the answers' ledger
// rows are written. Shared by SETTLE_MANY and ACQUIRE, which takes an instance's pending
// settles along (one round trip); each moves the counters by the returned delta itself.
// Every slot leaves in one ZREM and each answer's cards in one SADD: a command called from a
// script costs about a microsecond of Redis's one thread, more than the work of most of them.
// ARGV from `from`: per answer leaseId generation refundCredits charged cardCount cardId…
const SETTLE_BATCH_FN = ADJUST_FN + `
local function settleBatch(gen, leases, cards, hold, ttl, holdMs, from)
  local out, ids = {}, {}
  local delta, added = 0, false
  local i, last = from, #ARGV
  while i <= last do
    ids[#ids + 1] = ARGV[i]
    local n = 0
    if ARGV[i + 4] ~= '0' then n = tonumber(ARGV[i + 4]) end
    if not gen then
      out[#out + 1] = -1
    else
      -- Most answers refund nothing, under the generation they reserved in.
      if ARGV[i + 1] == gen then
        if ARGV[i + 2] ~= '0' then delta = delta - tonumber(ARGV[i + 2]) end
      else
        delta = delta + tonumber(ARGV[i + 3])
      end
      -- An answer's card ids are distinct: SADD of them all counts what one SADD each would.
      local fresh = 0
      for j = i + 5, i + 4 + n, 500 do
        fresh = fresh + redis.call('SADD', cards, unpack(ARGV, j, math.min(j + 499, i + 4 + n)))
      end
      if fresh > 0 then added = true end
      out[#out + 1] = fresh
    end
    i = i + 5 + n
  end
  if #ids > 0 then redis.call('ZREM', leases, unpack(ids)) end
  if added then redis.call('EXPIRE', cards, ttl) end
  if not gen and #out > 0 then holdRebuild(hold, holdMs) end
  return out, delta
end
`;

/**
 * KEYS: bucket, leases, credits, seeded, daily, feature, cards, hold, minute log
 * ARGV: now|'' rate burst perMinute maxInFlight leaseId leaseTtlMs cost creditLimit dailyCap
 *       featureLimit periodTtlS holdMs, then pending settles of the same account, period and day
 * → {outcome, tokens, fullInMs, creditsUsed, dailyUsed, retryAfterMs, featureUsed, cardsUsed, inFlight,
 *    generation, new cards of each pending settle…}
 * The pending settles apply first, whatever the outcome. Refusals reserve nothing. The
 * per-minute limit (the trial's) is a rolling 60 s: the minute log lists the times of the last
 * perMinute calls admitted, newest first, so no 60 s ever admits more. Unseeded: retryAfterMs is what is left of a hold.
 * Expiries are pushed out in steps rather than on every call (each call from a script costs
 * Redis about a microsecond): the bucket's hash records until when its own and the leases' keys
 * are known to live (xb, xl); the period's counters expire 8 days after the period ends, so
 * once a minute is often enough to push theirs out (a trial extended, say).
 */
export const ACQUIRE = SETTLE_BATCH_FN + `
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- What this script spends is mostly Lua's own work, not the commands': parsing a number from
-- a string (about 0.25 µs) and writing one back into a command (about 0.4 µs) are each worth a
-- small command. So a value is parsed only where it is compared or computed with, a limit of
-- none (-1) and a count of 0 are told by comparing the strings (interned: a pointer compare),
-- and what is written as it came (a cost, a TTL) goes back as its string.
local cost, lease = tonumber(ARGV[8]), ARGV[6]
local v = redis.call('MGET', KEYS[3], KEYS[5], KEYS[6], KEYS[4])
local gen = v[4]
local used, daily, feature = v[1] or 0, v[2] or 0, v[3] or 0
local settled, delta = settleBatch(gen, KEYS[2], KEYS[7], KEYS[8], ARGV[12], ARGV[13], 14)
-- Only existing counters move (adjust): the values just read say which exist.
if delta ~= 0 then
  if v[1] then used = redis.call('INCRBY', KEYS[3], delta) end
  if v[2] then daily = redis.call('INCRBY', KEYS[5], delta) end
end
local function tail(r)
  for _, s in ipairs(settled) do r[#r + 1] = s end
  return r
end

local cards = redis.call('SCARD', KEYS[7])
if not gen then return tail({6, 0, 0, used, daily, math.max(0, redis.call('PTTL', KEYS[8])), feature, cards, 0, ''}) end

local rate, burst = tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'ts', 'wm', 'wc', 'xb', 'xl')
local tokens, ts = tonumber(b[1]), tonumber(b[2])
if tokens == nil or ts == nil then tokens, ts = burst, now end
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000)
-- The minute as it is written (and was written before): compared as it is stored. It paces
-- the housekeeping below, not the per-minute limit.
local minute = tostring(math.floor(now / 60000))
local newMinute = b[3] ~= minute

local inFlight = 0
local function out(code, retry)
  return tail({code, math.floor(tokens), math.ceil((burst - tokens) * 1000 / rate), used, daily, retry, feature, cards, inFlight, gen})
end
if tokens < 1 then return out(1, math.ceil((1 - tokens) * 1000 / rate)) end
local perMinute = 0
if ARGV[4] ~= '0' then perMinute = tonumber(ARGV[4]) end
if perMinute > 0 then
  -- Admitting one more would make perMinute + 1 within 60 s while the perMinute-th newest is younger.
  local oldest = tonumber(redis.call('LINDEX', KEYS[9], perMinute - 1))
  if oldest and now - oldest < 60000 then return out(1, 60000 - (now - oldest)) end
end
-- Expired leases (of an instance that died) count for nothing; they are dropped once a minute.
local nowS = tostring(now)
if newMinute then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', nowS) end
inFlight = redis.call('ZCOUNT', KEYS[2], '(' .. nowS, '+inf')
if inFlight >= tonumber(ARGV[5]) then return out(2, 1000) end
if cost > 0 and ARGV[9] ~= '-1' then
  local creditLimit = tonumber(ARGV[9])
  if creditLimit >= 0 and used + cost > creditLimit then return out(3, 0) end
end
if cost > 0 and ARGV[10] ~= '-1' then
  local dailyCap = tonumber(ARGV[10])
  if dailyCap >= 0 and daily + cost > dailyCap then return out(4, 86400000 - (now % 86400000)) end
end
local counted = false
if ARGV[11] ~= '-1' then
  local featureLimit = tonumber(ARGV[11])
  counted = featureLimit >= 0
  if counted and tonumber(feature) >= featureLimit then return out(5, 0) end
end

tokens = tokens - 1
-- The bucket lives at least 120 s past its last use (full again by then), the leases' key at
-- least a lease's TTL and a second past the last lease. Without any lease in force the key may
-- be new (no expiry yet): its expiry is set then too.
local leaseTtl = tonumber(ARGV[7])
local xb, xl = tonumber(b[5]), tonumber(b[6])
local fields = {'t', tostring(tokens), 'ts', nowS, 'wm', minute}
local bucketTtl = not xb or xb - now < 120000
local leasesTtl = inFlight == 0 or not xl or xl - now < leaseTtl + 1000
if bucketTtl then
  xb = now + 180000
  fields[#fields + 1] = 'xb'
  fields[#fields + 1] = xb
end
if leasesTtl then
  xl = now + leaseTtl + 31000
  fields[#fields + 1] = 'xl'
  fields[#fields + 1] = xl
end
redis.call('HSET', KEYS[1], unpack(fields))
if bucketTtl then redis.call('PEXPIRE', KEYS[1], '180000') end
if perMinute > 0 then
  redis.call('LPUSH', KEYS[9], nowS)
  redis.call('LTRIM', KEYS[9], 0, perMinute - 1)
  redis.call('PEXPIRE', KEYS[9], 61000)
end
redis.call('ZADD', KEYS[2], now + leaseTtl, lease)
if leasesTtl then redis.call('PEXPIRE', KEYS[2], leaseTtl + 31000) end
inFlight = inFlight + 1
if cost > 0 then
  used = redis.call('INCRBY', KEYS[3], ARGV[8])
  daily = redis.call('INCRBY', KEYS[5], ARGV[8])
  -- The generation lives as long as the credits it stands for.
  if newMinute or used == cost then
    redis.call('EXPIRE', KEYS[3], ARGV[12])
    redis.call('EXPIRE', KEYS[4], ARGV[12])
  end
  -- A new day's counter is made here.
  if newMinute or daily == cost then redis.call('EXPIRE', KEYS[5], '172800') end
end
if counted then
  feature = redis.call('INCR', KEYS[6])
  redis.call('EXPIRE', KEYS[6], ARGV[12])
end
return out(0, 0)
`;

/**
 * KEYS: leases, credits, daily, feature, cards, seeded, hold
 * ARGV: leaseId refund(0|1) cost featureCounted(0|1) cardLimit periodTtlS partial generation holdMs cardId...
 * → {allowed(1|0), cardsBefore, cardsAfter, newCards, state(0 current|1 reseeded|2 unseeded)}
 * Releases the request's slot; gives credits back on a refund (`partial` of them on an answer
 * that cost less than it reserved); counts the answer's cards, refusing (and giving everything
 * back) when they are new and the allowance is already spent. Under a generation rebuilt since
 * the acquire, the rebuild read the ledger before this answer was recorded: a served answer
 * adds what it charged, a refund changes nothing. Unseeded: nothing is counted or decided.
 */
export const SETTLE = ADJUST_FN + `
redis.call('ZREM', KEYS[1], ARGV[1])
local gen = redis.call('GET', KEYS[6])
if not gen then
  holdRebuild(KEYS[7], tonumber(ARGV[9]))
  return {1, 0, 0, 0, 2}
end
local current = gen == ARGV[8]
local refund, cost, feat = ARGV[2] == '1', tonumber(ARGV[3]), ARGV[4] == '1'
local limit, ttl, partial = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local state = 1
if current then state = 0 end
local function move(credits, calls)
  adjust(KEYS[2], credits)
  adjust(KEYS[3], credits)
  if feat then adjust(KEYS[4], calls) end
end
local function giveBack()
  if current then move(-cost, -1) end
end
local function keep()
  if current then move(-partial, 0) else move(cost - partial, 1) end
end
local before = redis.call('SCARD', KEYS[5])
if refund then
  giveBack()
  return {1, before, before, 0, state}
end
local fresh = 0
for i = 10, #ARGV do
  if redis.call('SISMEMBER', KEYS[5], ARGV[i]) == 0 then fresh = fresh + 1 end
end
if limit >= 0 and before >= limit and fresh > 0 then
  giveBack()
  return {0, before, before, fresh, state}
end
keep()
if fresh > 0 then
  for i = 10, #ARGV, 500 do
    redis.call('SADD', KEYS[5], unpack(ARGV, i, math.min(i + 499, #ARGV)))
  end
  redis.call('EXPIRE', KEYS[5], ttl)
end
return {1, before, before + fresh, fresh, state}
`;

/**
 * KEYS: credits, seeded, daily, cards, hold, then one feature counter per feature
 * ARGV: generation credits daily periodTtlS, one value per feature, then cardId...
 * → 1 seeded, 0 already seeded (by another instance: its counters win), -1 held back by a settle.
 * Every counter is written from the ledger: nothing of an unseeded period is worth keeping.
 */
export const SEED = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[5]) == 1 then return -1 end
local ttl = ARGV[4]
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
redis.call('SET', KEYS[3], ARGV[3], 'EX', 172800)
local features = #KEYS - 5
for f = 1, features do
  redis.call('SET', KEYS[5 + f], ARGV[4 + f], 'EX', ttl)
end
redis.call('DEL', KEYS[4])
local from = 5 + features
for i = from, #ARGV, 500 do
  redis.call('SADD', KEYS[4], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
if #ARGV >= from then redis.call('EXPIRE', KEYS[4], ttl) end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ttl)
return 1
`;

/** KEYS: counter; ARGV: limit windowS → {allowed, count, ttlS}. A fixed window. */
export const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('TTL', KEYS[1])
if n > tonumber(ARGV[1]) then return {0, n, ttl} end
return {1, n, ttl}
`;

/** KEYS: credits, daily, cards, seeded, feature… → {creditsUsed, dailyUsed, cardsUsed, generation|'', featureUsed…}. Reads only. */
export const PEEK = `
local out = {tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(redis.call('GET', KEYS[2]) or '0'), redis.call('SCARD', KEYS[3]), redis.call('GET', KEYS[4]) or ''}
for i = 5, #KEYS do out[#out + 1] = tonumber(redis.call('GET', KEYS[i]) or '0') end
return out
`;

/**
 * KEYS: credits, seeded; ARGV: used periodTtlS → {applied(1|0), previous}. An operator sets a
 * seeded period's spent credits; an unseeded one must be rebuilt first, or its other counters would be lost.
 */
export const SET_CREDITS = `
if redis.call('EXISTS', KEYS[2]) == 0 then return {0, 0} end
local before = tonumber(redis.call('GET', KEYS[1]) or '0')
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return {1, before}
`;

/** KEYS: the marker → milliseconds since it was written, by this call when it was missing (Redis's clock). */
export const AGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], now, 'NX')
return now - tonumber(redis.call('GET', KEYS[1]))
`;

/**
 * Several settles of one account in one call (the answers of a burst). No allowance is decided
 * here: only answers without a card allowance come this way.
 * KEYS: leases, seeded, credits, daily, cards, hold
 * ARGV: periodTtlS holdMs, then per answer: leaseId generation refundCredits charged cardCount cardId…
 * → the new distinct cards of each answer, in order (-1: the period was unseeded)
 */
export const SETTLE_MANY = SETTLE_BATCH_FN + `
local out, delta = settleBatch(redis.call('GET', KEYS[2]), KEYS[1], KEYS[5], KEYS[6], tonumber(ARGV[1]), tonumber(ARGV[2]), 3)
adjust(KEYS[3], delta)
adjust(KEYS[4], delta)
return out
`;
