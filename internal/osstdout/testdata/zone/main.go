// Command zone loads time zones the ways package time reads zone files,
// for the report's tests (report_zone_test.go):
//
//	zone local        time.Local, from TZ (a file's path, or unset for /etc/localtime)
//	zone load NAME... time.LoadLocation of each NAME (from ZONEINFO: a directory or a zip)
//	zone none         formats a time in UTC: no zone file is read
//
// It prints each zone's name and the offset of a fixed instant there.
package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	at := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: zone local | load NAME... | none")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "local":
		fmt.Println(at.In(time.Local).Format("MST -0700"))
	case "load":
		for _, name := range os.Args[2:] {
			loc, err := time.LoadLocation(name)
			if err != nil {
				fmt.Fprintln(os.Stderr, "zone:", err)
				os.Exit(1)
			}
			fmt.Println(name, at.In(loc).Format("MST -0700"))
		}
	case "none":
		fmt.Println(at.Format(time.RFC3339))
	default:
		fmt.Fprintln(os.Stderr, "zone: unknown mode", os.Args[1])
		os.Exit(2)
	}
}
