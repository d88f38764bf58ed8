package ratelimit

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// RedisClientOptions reads the address of a Redis (serve's --redis) into the
// options of the limiter's client. The address is a redis:// or rediss://
// URL in go-redis's form (redis.ParseURL): a user name and password, the
// host and port (6379 when left out), a database number as the path, TLS for
// rediss://, and go-redis's settings as query parameters; or, as before URLs
// were taken, a bare host:port. The limiter's own timeouts and retries
// replace any the URL sets: a slow Redis must make way for the fallback,
// never hold requests up.
//
// Its errors never quote the address, which may hold a password.
func RedisClientOptions(addr string) (*redis.Options, error) {
	var opts *redis.Options
	if scheme, _, ok := strings.Cut(addr, "://"); ok {
		if scheme != "redis" && scheme != "rediss" {
			return nil, errors.New("want a redis:// or rediss:// URL, or host:port")
		}
		if _, err := url.Parse(addr); err != nil {
			// url.Parse's error quotes the URL, or a piece of it.
			return nil, errors.New("the URL does not parse (a user name or password holding / ? # @ % or the like must have them %-escaped)")
		}
		var err error
		if opts, err = redis.ParseURL(addr); err != nil {
			// These name the path or a query parameter, never the user
			// information.
			return nil, fmt.Errorf("the URL is not one go-redis takes: %w", err)
		}
	} else {
		host, port, err := net.SplitHostPort(addr)
		if err != nil || host == "" || port == "" {
			return nil, errors.New("want host:port, or a redis:// or rediss:// URL")
		}
		opts = &redis.Options{Addr: addr}
	}
	opts.DialTimeout = redisTimeout
	opts.ReadTimeout = redisTimeout
	opts.WriteTimeout = redisTimeout
	opts.PoolTimeout = redisTimeout
	opts.ContextTimeoutEnabled = true
	opts.MaxRetries = -1 // the fallback answers instead
	return opts, nil
}
