--[[
  While the lock holds the token: writes a value, then releases the lock (publishing on the lock's
  channel, named as the lock, for those waiting) or extends it.

  Input:
    KEYS[1]  the lock
    KEYS[2]  the key to write (same slot)
    ARGV[1]  lock token
    ARGV[2]  value
    ARGV[3]  the value's ttl in ms
    ARGV[4]  the lock's new ttl in ms (0: release the lock)

  Output:
    1 when written, 0 (nothing written) when the lock does not hold the token
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if ARGV[4] == '0' then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', KEYS[1], '')
else redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1
