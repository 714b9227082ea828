/**
 * Lua scripts of the Redis adapter. Each states its KEYS and ARGV. Numbers travel as strings so
 * cjson never rounds a millisecond timestamp.
 */

/** KEYS: every key the change touches (one hash slot). ARGV[1]: JSON {g: guards, o: ops}; op/guard `k` is a 1-based KEYS index. Returns 0, or the 1-based index of the first failed guard. */
export const atomicScript = `
local spec = cjson.decode(ARGV[1])
for i, g in ipairs(spec.g) do
  local key = KEYS[g.k]
  local ok
  if g.t == 'absent' then ok = redis.call('EXISTS', key) == 0
  elseif g.t == 'equals' then ok = redis.call('GET', key) == g.v
  elseif g.t == 'habsent' then ok = redis.call('HEXISTS', key, g.f) == 0
  else ok = redis.call('HGET', key, g.f) == g.v end
  if not ok then return i end
end
for _, op in ipairs(spec.o) do
  local key = KEYS[op.k]
  local o = op.o
  if o == 'set' then
    if op.t then redis.call('SET', key, op.v, 'PX', op.t) else redis.call('SET', key, op.v) end
  elseif o == 'del' then redis.call('DEL', key)
  elseif o == 'hset' then redis.call('HSET', key, unpack(op.f))
  elseif o == 'hdel' then redis.call('HDEL', key, unpack(op.f))
  elseif o == 'hincrby' then redis.call('HINCRBY', key, op.f, op.v)
  elseif o == 'zadd' then redis.call('ZADD', key, op.s, op.v)
  elseif o == 'zrem' then redis.call('ZREM', key, op.v)
  elseif o == 'sadd' then redis.call('SADD', key, op.v)
  elseif o == 'srem' then redis.call('SREM', key, op.v)
  elseif o == 'incrby' then redis.call('INCRBY', key, op.v)
  elseif o == 'pexpire' then redis.call('PEXPIRE', key, op.t)
  end
end
return 0
`;

/** KEYS[1]: slot sorted set. ARGV: member, expiresAtMs, max, nowMs. Returns {acquired 0|1, inUse}. */
export const acquireSlotScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  return {1, redis.call('ZCARD', KEYS[1])}
end
return {0, redis.call('ZCARD', KEYS[1])}
`;

/** KEYS[1]: counter. ARGV: by, ttlMs (0 = none). Sets the TTL when the counter is created. */
export const incrWithTtlScript = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if tonumber(ARGV[2]) > 0 and v == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v
`;

/**
 * KEYS[1]: any key. Its MEMORY USAGE (nil when missing). A script, so that a Cluster client routes
 * it by its key: ioredis cannot find the key of MEMORY USAGE and would send it to any node (MOVED).
 */
export const memoryUsageScript = `
return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')
`;

/**
 * KEYS[1]: lock, KEYS[2]: value to read (same slot). ARGV: token, ttlMs[, value to create, its ttlMs].
 * Returns {acquired 0|1, value or nil, created 0|1}: with ARGV[3], a missing value is created when
 * the lock was taken.
 */
export const lockAndReadScript = `
local ok = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')
local v = redis.call('GET', KEYS[2])
if ok and not v and ARGV[3] then
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
  return {1, ARGV[3], 1}
end
return {ok and 1 or 0, v, 0}
`;

/**
 * KEYS[1]: lock, KEYS[2]: key to write (same slot). ARGV: token, value, ttlMs, lockTtlMs (0 = release
 * the lock). Writes and releases or extends only while the lock holds the token. Returns 1, else 0.
 */
export const writeHeldScript = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if ARGV[4] == '0' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1
`;
