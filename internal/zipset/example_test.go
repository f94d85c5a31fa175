package zipset_test

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/zipset"
)

func Example() {
	archive, err := zipset.Write(map[string][]byte{
		"calc.wsdl":        []byte("<definitions/>"),
		"types/common.xsd": []byte("<schema/>"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	files, err := zipset.Read(archive, zipset.Limits{MaxFiles: 100, MaxTotalBytes: 10 << 20, MaxFileBytes: 5 << 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(files), string(files["calc.wsdl"]))
	// Output: 2 <definitions/>
}
