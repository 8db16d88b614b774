// The meter's decisions as Redis scripts: each runs atomically, so instances never race
// between reading a counter and writing it. No shebang flags: Redis 7.0 rejects some.

// Applies the settles of answers that decided nothing (no card allowance): releases each slot,
// gives refunds back, adds each answer's cards. Shared by SETTLE_MANY and ACQUIRE, which takes
// an instance's pending settles along so that a request costs one round trip.
// ARGV from `from`: per answer leaseId refundCredits cardCount cardId… → new cards per answer.
const SETTLE_BATCH_FN = `
local function settleBatch(leases, credits, daily, cards, ttl, from)
  local out = {}
  local i = from
  local refund = 0
  while i <= #ARGV do
    redis.call('ZREM', leases, ARGV[i])
    refund = refund + tonumber(ARGV[i + 1])
    local n = tonumber(ARGV[i + 2])
    local fresh = 0
    for j = i + 3, i + 2 + n do
      fresh = fresh + redis.call('SADD', cards, ARGV[j])
    end
    if fresh > 0 then redis.call('EXPIRE', cards, ttl) end
    out[#out + 1] = fresh
    i = i + 3 + n
  end
  if refund > 0 then
    redis.call('DECRBY', credits, refund)
    redis.call('DECRBY', daily, refund)
  end
  return out
end
`;

/**
 * KEYS: bucket, leases, credits, seeded, daily, feature, cards
 * ARGV: now|'' rate burst perMinute maxInFlight leaseId leaseTtlMs cost creditLimit dailyCap
 *       featureLimit periodTtlS, then pending settles of the same account, period and day
 * → {outcome, tokens, fullInMs, creditsUsed, dailyUsed, retryAfterMs, featureUsed, cardsUsed, inFlight,
 *    new cards of each pending settle…}
 * The pending settles apply first, whatever the outcome. Refusals reserve nothing. The
 * per-minute window lives in the bucket's hash.
 */
export const ACQUIRE = SETTLE_BATCH_FN + `
local now = tonumber(ARGV[1])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local rate, burst, perMinute = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local maxIn, lease, leaseTtl = tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
local cost, creditLimit, dailyCap = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local featureLimit, ttl = tonumber(ARGV[11]), tonumber(ARGV[12])
local settled = settleBatch(KEYS[2], KEYS[3], KEYS[5], KEYS[7], ttl, 13)
local function tail(r)
  for _, v in ipairs(settled) do r[#r + 1] = v end
  return r
end

local used = tonumber(redis.call('GET', KEYS[3]) or '0')
local daily = tonumber(redis.call('GET', KEYS[5]) or '0')
local feature = tonumber(redis.call('GET', KEYS[6]) or '0')
local cards = redis.call('SCARD', KEYS[7])
if redis.call('EXISTS', KEYS[4]) == 0 then return tail({6, 0, 0, used, daily, 0, feature, cards, 0}) end

local b = redis.call('HMGET', KEYS[1], 't', 'ts', 'wm', 'wc')
local tokens, ts = tonumber(b[1]), tonumber(b[2])
if tokens == nil or ts == nil then tokens, ts = burst, now end
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000)
local minute = math.floor(now / 60000)
local wc = 0
if tonumber(b[3]) == minute then wc = tonumber(b[4]) or 0 end

local inFlight = 0
local function out(code, retry)
  return tail({code, math.floor(tokens), math.ceil((burst - tokens) * 1000 / rate), used, daily, retry, feature, cards, inFlight})
end
if tokens < 1 then return out(1, math.ceil((1 - tokens) * 1000 / rate)) end
if perMinute > 0 and wc >= perMinute then return out(1, 60000 - (now % 60000)) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
inFlight = redis.call('ZCARD', KEYS[2])
if inFlight >= maxIn then return out(2, 1000) end
if cost > 0 and creditLimit >= 0 and used + cost > creditLimit then return out(3, 0) end
if cost > 0 and dailyCap >= 0 and daily + cost > dailyCap then return out(4, 86400000 - (now % 86400000)) end
if featureLimit >= 0 and feature >= featureLimit then return out(5, 0) end

tokens = tokens - 1
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'ts', now, 'wm', minute, 'wc', wc + 1)
redis.call('PEXPIRE', KEYS[1], 120000)
redis.call('ZADD', KEYS[2], now + leaseTtl, lease)
inFlight = inFlight + 1
redis.call('PEXPIRE', KEYS[2], leaseTtl + 1000)
if cost > 0 then
  used = redis.call('INCRBY', KEYS[3], cost)
  redis.call('EXPIRE', KEYS[3], ttl)
  daily = redis.call('INCRBY', KEYS[5], cost)
  redis.call('EXPIRE', KEYS[5], 172800)
end
if featureLimit >= 0 then
  feature = redis.call('INCR', KEYS[6])
  redis.call('EXPIRE', KEYS[6], ttl)
end
return out(0, 0)
`;

/**
 * KEYS: leases, credits, daily, feature, cards
 * ARGV: leaseId refund(0|1) cost featureCounted(0|1) cardLimit periodTtlS partial cardId...
 * → {allowed(1|0), cardsBefore, cardsAfter, newCards}
 * Releases the request's slot; gives credits back on a refund (`partial` of them on an answer
 * that cost less than it reserved); counts the answer's cards, refusing (and giving everything
 * back) when they are new and the allowance is already spent.
 */
export const SETTLE = `
redis.call('ZREM', KEYS[1], ARGV[1])
local refund, cost, feat = ARGV[2] == '1', tonumber(ARGV[3]), ARGV[4] == '1'
local limit, ttl, partial = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local function giveBack()
  if cost > 0 then
    redis.call('DECRBY', KEYS[2], cost)
    redis.call('DECRBY', KEYS[3], cost)
  end
  if feat then redis.call('DECR', KEYS[4]) end
end
local before = redis.call('SCARD', KEYS[5])
if refund then
  giveBack()
  return {1, before, before, 0}
end
local fresh = 0
for i = 8, #ARGV do
  if redis.call('SISMEMBER', KEYS[5], ARGV[i]) == 0 then fresh = fresh + 1 end
end
if limit >= 0 and before >= limit and fresh > 0 then
  giveBack()
  return {0, before, before, fresh}
end
if partial > 0 then
  redis.call('DECRBY', KEYS[2], partial)
  redis.call('DECRBY', KEYS[3], partial)
end
if fresh > 0 then
  for i = 8, #ARGV, 500 do
    redis.call('SADD', KEYS[5], unpack(ARGV, i, math.min(i + 499, #ARGV)))
  end
  redis.call('EXPIRE', KEYS[5], ttl)
end
return {1, before, before + fresh, fresh}
`;

/**
 * KEYS: credits, seeded, daily, cards
 * ARGV: credits daily periodTtlS cardId...
 * Counters that exist already (another instance seeded them, or charges began) win.
 */
export const SEED = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[3])
redis.call('SET', KEYS[3], ARGV[2], 'NX', 'EX', 172800)
for i = 4, #ARGV, 500 do
  redis.call('SADD', KEYS[4], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
if #ARGV >= 4 then redis.call('EXPIRE', KEYS[4], ARGV[3]) end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
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

/** KEYS: credits, daily, cards, feature… → {creditsUsed, dailyUsed, cardsUsed, featureUsed…}. Reads only. */
export const PEEK = `
local out = {tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(redis.call('GET', KEYS[2]) or '0'), redis.call('SCARD', KEYS[3])}
for i = 4, #KEYS do out[#out + 1] = tonumber(redis.call('GET', KEYS[i]) or '0') end
return out
`;

/** KEYS: credits, seeded; ARGV: used periodTtlS. An operator sets the period's spent credits. */
export const SET_CREDITS = `
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
return 1
`;

/**
 * Several settles of one account in one call (the answers of a burst). No allowance is decided
 * here: only answers without a card allowance come this way.
 * KEYS: leases, credits, daily, cards
 * ARGV: periodTtlS, then per answer: leaseId refundCredits cardCount cardId…
 * → the new distinct cards of each answer, in order
 */
export const SETTLE_MANY = SETTLE_BATCH_FN + `
return settleBatch(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), 2)
`;
