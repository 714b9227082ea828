--[[
  Takes a lock (only when absent) and reads a value in one step; with ARGV[3], a missing value is
  created when the lock was taken.

  Input:
    KEYS[1]  the lock
    KEYS[2]  the value to read (same slot)
    ARGV[1]  lock token
    ARGV[2]  lock ttl in ms
    ARGV[3]  optional: the value to create when missing
    ARGV[4]  optional: its ttl in ms

  Output:
    {acquired 0|1, value or nil, created 0|1}
]]
local ok = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')
local v = redis.call('GET', KEYS[2])
if ok and not v and ARGV[3] then
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
  return {1, ARGV[3], 1}
end
return {ok and 1 or 0, v, 0}
