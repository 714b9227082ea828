--[[
  The writes of the store port's `atomic` in their flat encoding (atomic.lua's header states it),
  as a function the scripts that take such writes share (prepended to them when defined, see
  redis-client.ts): checks the guards, then applies the ops, all-or-nothing.

  apply_encoded(first): ARGV[first] is the number of guards; the guards and then the ops follow to
  the end of ARGV, their keys named by 1-based KEYS indexes. Answers 0 when every write applied,
  else the 1-based index of the first failed guard (nothing written).
]]
local function apply_encoded(first)
  local i = first + 1
  for g = 1, tonumber(ARGV[first]) do
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
    elseif o == 'L' then
      redis.call('RPUSH', key, ARGV[i + 2])
      redis.call('LTRIM', key, -tonumber(ARGV[i + 3]), -1)
      i = i + 4
    elseif o == 'Y' then redis.call('ZREMRANGEBYSCORE', key, ARGV[i + 2], ARGV[i + 3]); i = i + 4
    elseif o == 'X' then
      local c = tonumber(ARGV[i + 3])
      redis.call('XADD', key, 'MAXLEN', '~', ARGV[i + 2], '*', unpack(ARGV, i + 4, i + 3 + c))
      i = i + 4 + c
    else return redis.error_reply('atomic: unknown op ' .. tostring(o)) end
  end
  return 0
end
