/**
 * Lua scripts of the Redis adapter. Each states its KEYS and ARGV. Numbers travel as strings, so
 * Lua never turns a millisecond timestamp into a float.
 */

/**
 * KEYS: every key the change touches (one hash slot). ARGV: a flat list, so that no JSON is built
 * or decoded (cjson cost more than the writes themselves on a turn's history): ARGV[1] = the number
 * of guards, then each guard, then each op, every one as a code, the 1-based KEYS index of its key,
 * and its arguments:
 *   guards: a k (key absent) | x k (key exists) | e k v (string equals) | h k f (hash field absent) |
 *           H k f v (hash field equals)
 *   ops:    s k v (SET) | S k v ms (SET PX) | d k (DEL) | h k n f1 v1… (HSET, n args) |
 *           D k n f1… (HDEL, n args) | i k f by (HINCRBY) | z k score member (ZADD) |
 *           Z c p s1 m1 … sp mp k1…kc (one ZADD of the p pairs to each of the c keys: a turn's
 *           messages into their indexes) | r k m (ZREM) |
 *           a k m (SADD) | m k m (SREM) | I k by (INCRBY) | p k ms (PEXPIRE)
 * Returns 0, or the 1-based index of the first failed guard (then nothing was written).
 */
export const atomicScript = `
local i = 2
for g = 1, tonumber(ARGV[1]) do
  local t, key = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
  local ok
  if t == 'a' then ok = redis.call('EXISTS', key) == 0; i = i + 2
  elseif t == 'x' then ok = redis.call('EXISTS', key) == 1; i = i + 2
  elseif t == 'e' then ok = redis.call('GET', key) == ARGV[i + 2]; i = i + 3
  elseif t == 'h' then ok = redis.call('HEXISTS', key, ARGV[i + 2]) == 0; i = i + 3
  else ok = redis.call('HGET', key, ARGV[i + 2]) == ARGV[i + 3]; i = i + 4 end
  if not ok then return g end
end
local n = #ARGV
while i <= n do
  local o, key = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
  if o == 'z' then redis.call('ZADD', key, ARGV[i + 2], ARGV[i + 3]); i = i + 4
  elseif o == 'Z' then
    -- (key above is not used: here ARGV[i + 1] is the number of keys)
    local c, last = tonumber(ARGV[i + 1]), i + 2 + 2 * tonumber(ARGV[i + 2])
    for j = last + 1, last + c do redis.call('ZADD', KEYS[tonumber(ARGV[j])], unpack(ARGV, i + 3, last)) end
    i = last + c + 1
  elseif o == 'h' then
    local c = tonumber(ARGV[i + 2])
    if c > 0 then redis.call('HSET', key, unpack(ARGV, i + 3, i + 2 + c)) end
    i = i + 3 + c
  elseif o == 's' then redis.call('SET', key, ARGV[i + 2]); i = i + 3
  elseif o == 'S' then redis.call('SET', key, ARGV[i + 2], 'PX', ARGV[i + 3]); i = i + 4
  elseif o == 'd' then redis.call('DEL', key); i = i + 2
  elseif o == 'D' then
    local c = tonumber(ARGV[i + 2])
    if c > 0 then redis.call('HDEL', key, unpack(ARGV, i + 3, i + 2 + c)) end
    i = i + 3 + c
  elseif o == 'i' then redis.call('HINCRBY', key, ARGV[i + 2], ARGV[i + 3]); i = i + 4
  elseif o == 'r' then redis.call('ZREM', key, ARGV[i + 2]); i = i + 3
  elseif o == 'a' then redis.call('SADD', key, ARGV[i + 2]); i = i + 3
  elseif o == 'm' then redis.call('SREM', key, ARGV[i + 2]); i = i + 3
  elseif o == 'I' then redis.call('INCRBY', key, ARGV[i + 2]); i = i + 3
  elseif o == 'p' then redis.call('PEXPIRE', key, ARGV[i + 2]); i = i + 3
  else return redis.error_reply('atomic: unknown op ' .. tostring(o)) end
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
